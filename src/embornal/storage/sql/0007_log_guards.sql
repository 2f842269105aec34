-- 0007_log_guards: REPLACE must not rewrite or drop a past event, and a redaction may
-- change the payload of an event and nothing else.
CREATE TRIGGER events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events e WHERE e.position = NEW.position)
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

-- Same words as SQLite's own constraint error, so a lost race still reads as a
-- concurrency conflict (and REPLACE cannot drop the other writer's event).
CREATE TRIGGER events_no_replace_version BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events e WHERE e.stream_id = NEW.stream_id AND e.version = NEW.version)
BEGIN
    SELECT RAISE(ABORT, 'UNIQUE constraint failed: events.stream_id, events.version');
END;

DROP TRIGGER events_no_update;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT EXISTS (SELECT 1 FROM event_redactions r WHERE r.position = OLD.position)
    OR NEW.position IS NOT OLD.position OR NEW.stream_id IS NOT OLD.stream_id
    OR NEW.version IS NOT OLD.version OR NEW.type IS NOT OLD.type
    OR NEW.schema_version IS NOT OLD.schema_version OR NEW.actor IS NOT OLD.actor
    OR NEW.actor_kind IS NOT OLD.actor_kind OR NEW.recorded_at IS NOT OLD.recorded_at
    OR NEW.reason IS NOT OLD.reason
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

CREATE TRIGGER event_redactions_no_replace BEFORE INSERT ON event_redactions
WHEN EXISTS (SELECT 1 FROM event_redactions r WHERE r.position = NEW.position)
BEGIN
    SELECT RAISE(ABORT, 'redaction records are append-only');
END;
