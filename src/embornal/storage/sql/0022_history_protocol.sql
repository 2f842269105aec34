-- 0022_history_protocol: the history protocol's projections (decision 0064).
-- Both are rebuilt from the log (the protocol's events in each fact's stream); a fact no
-- protocol event touched has no row here and counts as consolidated, archive, not
-- sensitive. A log written before this migration holds no protocol event: nothing to fill.

-- One row per memory the protocol knows: its stage (working | consolidated), provenance
-- tier (archive | testimony | interpretation), sensitivity, when it was captured, when an
-- interpretation was last reviewed, and the capture session label.
CREATE TABLE memory_protocol (
    fact_id     TEXT    NOT NULL PRIMARY KEY,
    stage       TEXT    NOT NULL CHECK (stage IN ('working', 'consolidated')),
    tier        TEXT    NOT NULL CHECK (tier IN ('archive', 'testimony', 'interpretation')),
    sensitive   INTEGER NOT NULL DEFAULT 0,
    captured_at TEXT,
    reviewed_at TEXT,
    session     TEXT
) WITHOUT ROWID;

CREATE INDEX memory_protocol_stage ON memory_protocol (stage, captured_at);
CREATE INDEX memory_protocol_tier ON memory_protocol (tier, reviewed_at);

-- Every corroboration recorded (repeats too), in log order per fact; a purge erases the
-- labels.
CREATE TABLE memory_corroborations (
    fact_id       TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    source        TEXT,
    common_origin TEXT,
    recorded_at   TEXT    NOT NULL,
    actor         TEXT    NOT NULL,
    PRIMARY KEY (fact_id, position)
) WITHOUT ROWID;

-- The forgotten facts
-- (`list_forgotten`, the last forgotten first), read without a scan.
CREATE INDEX facts_forgotten ON facts (deleted_at) WHERE deleted_at IS NOT NULL;
