-- 0026_narratives: narrative accounts' projections (decisions 0085, 0086).
-- Rebuilt from the log (the events of the `narrative:<account>` streams). No text here:
-- a version's synthesis, coverage and review notes are read from its stream, which a
-- purge of a dependency redacts. A log written before this migration holds no narrative
-- event: nothing to fill.

-- One row per version: its account (stream), scope and perspective, its number in the
-- account, the log position and time of its narrate, and whether it is the account's
-- current version.
CREATE TABLE narratives (
    id          TEXT    NOT NULL PRIMARY KEY,
    stream_id   TEXT    NOT NULL,
    scope       TEXT    NOT NULL,
    perspective TEXT    NOT NULL,
    number      INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    recorded_at TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    current     INTEGER NOT NULL DEFAULT 1
) WITHOUT ROWID;

CREATE INDEX narratives_account ON narratives (stream_id, number);
CREATE INDEX narratives_current ON narratives (current, scope, recorded_at);

-- The facts each version depends on (its memories and both ends of its links).
CREATE TABLE narrative_dependencies (
    narrative_id TEXT NOT NULL,
    fact_id      TEXT NOT NULL,
    PRIMARY KEY (narrative_id, fact_id)
) WITHOUT ROWID;

CREATE INDEX narrative_dependencies_fact ON narrative_dependencies (fact_id);
