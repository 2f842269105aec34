-- pg_0007_narratives: as SQLite's 0026_narratives (decision 0085): each narrative version
-- and the facts it depends on (no text: that stays in the log).
CREATE TABLE narratives (
    id          TEXT    NOT NULL PRIMARY KEY,
    stream_id   TEXT    NOT NULL,
    scope       TEXT    NOT NULL,
    perspective TEXT    NOT NULL,
    number      INTEGER NOT NULL,
    position    BIGINT  NOT NULL,
    recorded_at TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    current     INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX narratives_account ON narratives (stream_id, number);
CREATE INDEX narratives_current ON narratives (current, scope, recorded_at);
CREATE TABLE narrative_dependencies (
    narrative_id TEXT NOT NULL,
    fact_id      TEXT NOT NULL,
    PRIMARY KEY (narrative_id, fact_id)
);
CREATE INDEX narrative_dependencies_fact ON narrative_dependencies (fact_id);
