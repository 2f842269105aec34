-- 0029_anchor_index_path: the anchor index of live facts (0023) also holds each fact's
-- row id and path, so recall with no query under a path walks it kept to the subtree's
-- paths without reading a row per entry (storage/strongest.py, decision 0116).
DROP INDEX facts_live_anchor;
CREATE INDEX facts_live_anchor ON facts (coalesce(last_recall_at, created_at), seq, path_id)
    WHERE deleted_at IS NULL AND superseded_by IS NULL;
