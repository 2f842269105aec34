-- pg_0008_history: time travel on PostgreSQL (decision 0041, SQLite's 0016_history; decision
-- 0100): what the memory held at any past time, as intervals of recorded time
-- [valid_from, valid_to). The same tables and values as SQLite's, written by the same code
-- (storage/history.py through the dialect) with each event; the migration fills them in
-- from the log (postgres/history_fill.py) in its own transaction.

CREATE TABLE fact_versions (
    fact_id      TEXT    NOT NULL,
    valid_from   TEXT    NOT NULL,
    valid_to     TEXT,
    position     BIGINT  NOT NULL,
    state        TEXT    NOT NULL,
    attributes   TEXT,
    kind_version INTEGER,
    fields       TEXT    NOT NULL,
    PRIMARY KEY (fact_id, valid_from)
);

CREATE TABLE fact_signals (
    fact_id        TEXT             NOT NULL,
    valid_from     TEXT             NOT NULL,
    valid_to       TEXT,
    last_recall_at TEXT,
    recall_count   INTEGER          NOT NULL,
    stability_days DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (fact_id, valid_from)
);

CREATE TABLE fact_tag_versions (
    fact_id    TEXT NOT NULL,
    key        TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_to   TEXT,
    value      TEXT NOT NULL,
    PRIMARY KEY (fact_id, key, valid_from)
);

CREATE TABLE path_tag_versions (
    path_id    BIGINT NOT NULL,
    tagger     TEXT   NOT NULL,
    key        TEXT   NOT NULL,
    valid_from TEXT   NOT NULL,
    valid_to   TEXT,
    value      TEXT   NOT NULL,
    PRIMARY KEY (path_id, tagger, key, valid_from)
);

-- `find --at`: the facts of one kind in the order find gives them, whatever their
-- attributes now.
CREATE INDEX IF NOT EXISTS facts_kind_created ON facts (kind, created_at, id);
