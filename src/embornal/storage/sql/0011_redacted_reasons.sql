-- 0011_redacted_reasons: a purge also erases the reasons of the fact's earlier events (a
-- person may have typed the secret into one). A redaction may now change the payload of
-- an event and set its reason to the fixed mark '[redacted]', and nothing else.
DROP TRIGGER events_no_update;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT EXISTS (SELECT 1 FROM event_redactions r WHERE r.position = OLD.position)
    OR NEW.position IS NOT OLD.position OR NEW.stream_id IS NOT OLD.stream_id
    OR NEW.version IS NOT OLD.version OR NEW.type IS NOT OLD.type
    OR NEW.schema_version IS NOT OLD.schema_version OR NEW.actor IS NOT OLD.actor
    OR NEW.actor_kind IS NOT OLD.actor_kind OR NEW.recorded_at IS NOT OLD.recorded_at
    OR (NEW.reason IS NOT OLD.reason AND NEW.reason IS NOT '[redacted]')
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
