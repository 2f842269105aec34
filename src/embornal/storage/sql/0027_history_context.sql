-- 0027_history_context: the history context of a memory (decision 0088).
-- When the event a memory tells of happened (`event_at`, ISO-8601 UTC text; NULL:
-- unknown) and its place in its session (`session_position`), beside the session label
-- the capture already kept. Rebuilt from the log (`MemoryCaptured`, `MemoryContextSet`);
-- existing rows keep an unknown context: nothing is guessed.
ALTER TABLE memory_protocol ADD COLUMN event_at TEXT;
ALTER TABLE memory_protocol ADD COLUMN session_position INTEGER;

-- The timeline by event time (a window reads its range only) and a session's timeline
-- (by position), neither scanning the memories.
CREATE INDEX memory_protocol_event ON memory_protocol (event_at, session_position)
    WHERE event_at IS NOT NULL;
CREATE INDEX memory_protocol_session ON memory_protocol (session, session_position)
    WHERE session IS NOT NULL;
