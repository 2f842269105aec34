-- pg_0004_canon_frames: as SQLite's 0024_canon_frames (decisions 0078-0080): the active
-- canon, the frame of a memory, and why a conflict was opened.
CREATE TABLE canon_entries (
    fact_id  TEXT   NOT NULL,
    scope    TEXT   NOT NULL,
    since    TEXT   NOT NULL,
    position BIGINT NOT NULL,
    reason   TEXT,
    actor    TEXT   NOT NULL,
    PRIMARY KEY (fact_id, scope)
);

CREATE INDEX canon_entries_by_scope ON canon_entries (scope, since);

ALTER TABLE memory_protocol ADD COLUMN frame TEXT;

CREATE INDEX memory_protocol_frame ON memory_protocol (frame) WHERE frame IS NOT NULL;

ALTER TABLE conflicts ADD COLUMN opened_reason TEXT;
