-- 0024_canon_frames: canon, frames and declared conflicts (decisions
-- 0078-0080). All are projections of the log (MemoryCanonized, MemoryDecanonized and
-- MemoryFramed in each fact's stream; ConflictOpened's reason), rebuilt by `admin rebuild`
-- and compared by `admin verify`. A log written before this migration holds none of the
-- new events: nothing to fill, and a conflict opened before it has no opening reason.

-- The active canon: one row per membership (a memory in a scope), since when, why and by
-- whom; a decanonize, an end of its scope or a lift by sensitivity deletes the row (the
-- log keeps its history). A purge of the memory deletes its rows.
CREATE TABLE canon_entries (
    fact_id  TEXT    NOT NULL,
    scope    TEXT    NOT NULL,
    since    TEXT    NOT NULL,
    position INTEGER NOT NULL,
    reason   TEXT,
    actor    TEXT    NOT NULL,
    PRIMARY KEY (fact_id, scope)
) WITHOUT ROWID;

CREATE INDEX canon_entries_by_scope ON canon_entries (scope, since);

-- The frame of a memory (a label to filter by, not an access boundary).
ALTER TABLE memory_protocol ADD COLUMN frame TEXT;

CREATE INDEX memory_protocol_frame ON memory_protocol (frame) WHERE frame IS NOT NULL;

-- Why a conflict was opened (the reason of its ConflictOpened: a declared conflict's).
ALTER TABLE conflicts ADD COLUMN opened_reason TEXT;
