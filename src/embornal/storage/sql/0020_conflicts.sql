-- Conflicts (decisions 0058-0060): each conflict as its stream says (open or
-- resolved, its class, score, findings as a JSON list of rule names, its resolution), its
-- members, and the entity keys of every entity fact (person, organization, location,
-- asset), so that the candidates of a new entity are one indexed lookup. All three are
-- projections of the log (ConflictOpened, ConflictResolved; FactStored,
-- FactAttributesUpdated, FactPurged).
CREATE TABLE conflicts (
    id TEXT PRIMARY KEY,
    class TEXT NOT NULL,
    status TEXT NOT NULL,
    score REAL NOT NULL,
    findings TEXT NOT NULL,
    detected_by TEXT NOT NULL,
    suggested_keep TEXT,
    opened_at TEXT NOT NULL,
    opened_by TEXT NOT NULL,
    outcome TEXT,
    kept_id TEXT,
    archived TEXT,
    resolved_at TEXT,
    resolved_by TEXT,
    reason TEXT
);

CREATE INDEX conflicts_by_status ON conflicts (status, opened_at);

CREATE TABLE conflict_members (
    conflict_id TEXT NOT NULL,
    fact_id TEXT NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (conflict_id, fact_id)
) WITHOUT ROWID;

CREATE INDEX conflict_members_by_fact ON conflict_members (fact_id);

CREATE TABLE entity_keys (
    key TEXT NOT NULL,
    fact_id TEXT NOT NULL,
    PRIMARY KEY (key, fact_id)
) WITHOUT ROWID;

CREATE INDEX entity_keys_by_fact ON entity_keys (fact_id);
