-- Typed links between facts (decision 0052): one row a link, in its canonical
-- direction, projected from FactLinked / FactUnlinked on the source's stream. No foreign key
-- to facts: a link may dangle (its target forgotten, purged or merged) and is never deleted
-- with it. ``position`` is the log position of the FactLinked.
CREATE TABLE fact_links (
    source_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    target_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    linked_at TEXT NOT NULL,
    actor TEXT NOT NULL,
    PRIMARY KEY (source_id, relation, target_id)
) WITHOUT ROWID;

CREATE INDEX fact_links_by_target ON fact_links (target_id, relation, source_id);

-- Merges (decision 0054): the source fact and the survivor it was merged into,
-- from FactMerged on the survivor's stream; links to the source resolve to the survivor.
CREATE TABLE fact_merges (
    source_id TEXT PRIMARY KEY,
    survivor_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    merged_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX fact_merges_by_survivor ON fact_merges (survivor_id);
