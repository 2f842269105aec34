-- 0016_history: what the memory held at any past time (decision 0041), as intervals of
-- recorded time [valid_from, valid_to): valid_from is when the change was recorded (the
-- event's recorded_at), valid_to when the next change was (NULL: still so). Projections
-- of the log, written by the projector with each event (storage/history.py); the rows of
-- the history before this migration are filled in from the log when the store opens.

-- Each state of a fact: its life cycle, attributes and the versioned columns of `facts`
-- (JSON `fields`: superseded_by, deleted_at, purged_at, confidence, last_confirmed_at…).
-- A purge erases `attributes` in every row of the fact.
CREATE TABLE fact_versions (
    fact_id      TEXT    NOT NULL,
    valid_from   TEXT    NOT NULL,
    valid_to     TEXT,
    position     INTEGER NOT NULL,
    state        TEXT    NOT NULL,
    attributes   TEXT,
    kind_version INTEGER,
    fields       TEXT    NOT NULL,
    PRIMARY KEY (fact_id, valid_from)
) WITHOUT ROWID;

-- The strength signals of a fact after each recall (none before its first).
CREATE TABLE fact_signals (
    fact_id        TEXT    NOT NULL,
    valid_from     TEXT    NOT NULL,
    valid_to       TEXT,
    last_recall_at TEXT,
    recall_count   INTEGER NOT NULL,
    stability_days REAL    NOT NULL,
    PRIMARY KEY (fact_id, valid_from)
) WITHOUT ROWID;

-- A fact's own tags over time (a purge deletes all but the owner's).
CREATE TABLE fact_tag_versions (
    fact_id    TEXT NOT NULL,
    key        TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_to   TEXT,
    value      TEXT NOT NULL,
    PRIMARY KEY (fact_id, key, valid_from)
) WITHOUT ROWID;

-- Each tagger's tags on a path over time.
CREATE TABLE path_tag_versions (
    path_id    INTEGER NOT NULL,
    tagger     TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    valid_from TEXT    NOT NULL,
    valid_to   TEXT,
    value      TEXT    NOT NULL,
    PRIMARY KEY (path_id, tagger, key, valid_from)
) WITHOUT ROWID;

-- `find --at`: the facts of one kind in the order find gives them, whatever their
-- attributes now (a past time cannot use the kinds' indexes on today's attributes).
CREATE INDEX facts_kind_created ON facts (kind, created_at, id);
