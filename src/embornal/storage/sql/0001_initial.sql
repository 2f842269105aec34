-- 0001_initial: the event log, its projections and the root path.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The source of truth. Append-only: triggers forbid DELETE, and UPDATE except
-- the payload of an event that a purge recorded in event_redactions.
CREATE TABLE events (
    position       INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id      TEXT    NOT NULL,
    version        INTEGER NOT NULL CHECK (version >= 1),
    type           TEXT    NOT NULL,
    schema_version INTEGER NOT NULL DEFAULT 1,
    payload        TEXT    NOT NULL,
    actor          TEXT    NOT NULL,
    actor_kind     TEXT    NOT NULL CHECK (actor_kind IN ('person', 'assistant', 'system')),
    reason         TEXT,
    recorded_at    TEXT    NOT NULL,
    UNIQUE (stream_id, version)
);
CREATE INDEX events_type ON events (type, position);

CREATE TABLE event_redactions (
    position       INTEGER PRIMARY KEY REFERENCES events (position),
    purge_position INTEGER NOT NULL,
    redacted_at    TEXT    NOT NULL
);

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT EXISTS (SELECT 1 FROM event_redactions r WHERE r.position = OLD.position)
    OR NEW.position IS NOT OLD.position OR NEW.stream_id IS NOT OLD.stream_id
    OR NEW.version IS NOT OLD.version OR NEW.type IS NOT OLD.type
    OR NEW.actor IS NOT OLD.actor OR NEW.recorded_at IS NOT OLD.recorded_at
    OR NEW.reason IS NOT OLD.reason
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

CREATE TRIGGER event_redactions_no_delete BEFORE DELETE ON event_redactions
BEGIN
    SELECT RAISE(ABORT, 'redaction records are append-only');
END;

CREATE TRIGGER event_redactions_no_update BEFORE UPDATE ON event_redactions
BEGIN
    SELECT RAISE(ABORT, 'redaction records are append-only');
END;

-- Projections: rebuilt from the events by `embornal admin rebuild`.

CREATE TABLE paths (
    id        INTEGER PRIMARY KEY,
    parent_id INTEGER REFERENCES paths (id),
    name      TEXT    NOT NULL,
    path      TEXT    NOT NULL UNIQUE,
    depth     INTEGER NOT NULL,
    CHECK ((id = 1) = (parent_id IS NULL))
);
CREATE INDEX paths_parent ON paths (parent_id, name);
INSERT INTO paths (id, parent_id, name, path, depth) VALUES (1, NULL, '', '/', 0);

-- Every (ancestor, descendant) pair, a path being its own ancestor.
CREATE TABLE path_closure (
    ancestor_id    INTEGER NOT NULL REFERENCES paths (id),
    descendant_id  INTEGER NOT NULL REFERENCES paths (id),
    ancestor_depth INTEGER NOT NULL,
    PRIMARY KEY (descendant_id, ancestor_id)
) WITHOUT ROWID;
CREATE INDEX path_closure_ancestor ON path_closure (ancestor_id, descendant_id);
INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) VALUES (1, 1, 0);

CREATE TABLE facts (
    seq            INTEGER PRIMARY KEY,
    id             TEXT    NOT NULL UNIQUE,
    path_id        INTEGER NOT NULL REFERENCES paths (id),
    content        TEXT    NOT NULL,
    kind           TEXT    NOT NULL DEFAULT 'fact',
    attributes     TEXT,
    owner          TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    recorded_at    TEXT    NOT NULL,
    last_recall_at TEXT,
    recall_count   INTEGER NOT NULL DEFAULT 0,
    stability_days REAL    NOT NULL DEFAULT 1.0,
    supersedes_id  TEXT,
    superseded_by  TEXT,
    deleted_at     TEXT,
    purged_at      TEXT,
    embedding      BLOB
);
CREATE INDEX facts_path ON facts (path_id, created_at);
CREATE INDEX facts_supersedes ON facts (supersedes_id) WHERE supersedes_id IS NOT NULL;
CREATE INDEX facts_live ON facts (seq) WHERE deleted_at IS NULL AND superseded_by IS NULL;
CREATE INDEX facts_pending_embedding_idx ON facts (seq)
    WHERE embedding IS NULL AND deleted_at IS NULL AND purged_at IS NULL;

CREATE TABLE fact_tags (
    fact_id TEXT NOT NULL REFERENCES facts (id),
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (fact_id, key)
) WITHOUT ROWID;
CREATE INDEX fact_tags_kv ON fact_tags (key, value, fact_id);

CREATE TABLE path_tags (
    path_id INTEGER NOT NULL REFERENCES paths (id),
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (path_id, key)
) WITHOUT ROWID;
CREATE INDEX path_tags_kv ON path_tags (key, value, path_id);

-- The tags that decide access: a fact's own tag beats every inherited one; among
-- inherited tags the nearest path wins; an owner tag on a path never reaches a fact.
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
        JOIN path_tags pt ON pt.path_id = pc.ancestor_id
        WHERE pt.key <> 'owner'
    )
)
WHERE rn = 1;

-- Keyword index over a derived text (stemmed words, CJK bigrams); rowid = facts.seq.
CREATE VIRTUAL TABLE facts_fts USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE facts_fts_vocab USING fts5vocab (facts_fts, 'row');

CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('fts_docs', 0);
