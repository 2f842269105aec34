-- 0023_strongest_indexes: recall with no query reads the strongest live facts from two
-- index ranges instead of computing every fact's strength (storage/strongest.py): the
-- most recently anchored (last recall, else creation), and the most stable.
CREATE INDEX facts_live_anchor ON facts (coalesce(last_recall_at, created_at))
    WHERE deleted_at IS NULL AND superseded_by IS NULL;
CREATE INDEX facts_live_stability ON facts (stability_days)
    WHERE deleted_at IS NULL AND superseded_by IS NULL;
