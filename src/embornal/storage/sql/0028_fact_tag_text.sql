-- A fact's own tags as one column of its row (decision 0091): key US value, RS between,
-- sorted by key then value, written by the projector with the fact (and cut to the owner's
-- by a purge), so that the reads of the present do not query fact_tags once per row.
ALTER TABLE facts ADD COLUMN tag_text TEXT;

UPDATE facts SET tag_text = (
    SELECT group_concat(x, char(30)) FROM (
        SELECT t.key || char(31) || t.value AS x FROM fact_tags t
        WHERE t.fact_id = facts.id ORDER BY t.key, t.value
    )
);
