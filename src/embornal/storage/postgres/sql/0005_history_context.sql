-- pg_0006_history_context: as SQLite's 0027_history_context (decision 0088): when the
-- event a memory tells of happened, and its place in its session.
ALTER TABLE memory_protocol ADD COLUMN event_at TEXT;
ALTER TABLE memory_protocol ADD COLUMN session_position INTEGER;

CREATE INDEX memory_protocol_event ON memory_protocol (event_at, session_position)
    WHERE event_at IS NOT NULL;
CREATE INDEX memory_protocol_session ON memory_protocol (session, session_position)
    WHERE session IS NOT NULL;
