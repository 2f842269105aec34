-- 0010_path_tags_by_tagger: a path tag reaches only the facts of the subject that set
-- it (its tagger), so tagging a path never changes who may see another owner's facts.
-- The rows are rebuilt from the PathTagged/PathUntagged events after this script.

DROP VIEW effective_fact_tags;
DROP TABLE path_tags;

CREATE TABLE path_tags (
    path_id INTEGER NOT NULL REFERENCES paths (id),
    tagger  TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (path_id, tagger, key)
) WITHOUT ROWID;
CREATE INDEX path_tags_kv ON path_tags (key, value, path_id);

-- The tags that decide access: a fact's own tag beats every inherited one; a fact
-- inherits only the path tags its owner set, the nearest path first; an owner tag on
-- a path never reaches a fact.
CREATE VIEW effective_fact_tags AS
SELECT fact_id, key, value, source_path_id
FROM (
    SELECT fact_id, key, value, source_path_id,
           row_number() OVER (PARTITION BY fact_id, key ORDER BY rank DESC) AS rn
    FROM (
        SELECT ft.fact_id, ft.key, ft.value, NULL AS source_path_id, 1000000 AS rank
        FROM fact_tags ft
        UNION ALL
        SELECT f.id, pt.key, pt.value, pt.path_id, pc.ancestor_depth
        FROM facts f
        JOIN path_closure pc ON pc.descendant_id = f.path_id
        JOIN path_tags pt ON pt.path_id = pc.ancestor_id AND pt.tagger = f.owner
        WHERE pt.key <> 'owner'
    )
)
WHERE rn = 1;
