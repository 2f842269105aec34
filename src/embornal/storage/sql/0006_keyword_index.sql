-- 0006_keyword_index: keyword recall ranks on (seq, path_id) of live facts alone,
-- then reads the full rows of the winners only.
CREATE INDEX facts_live_path ON facts (seq, path_id)
    WHERE deleted_at IS NULL AND superseded_by IS NULL;
DROP INDEX facts_live;
