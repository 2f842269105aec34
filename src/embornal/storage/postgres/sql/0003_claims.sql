-- pg_0005_claims: as SQLite's 0025_claims (decision 0081): the claims ledger's projections,
-- no user text (a claim's text is read from its stream).
CREATE TABLE claims (
    id          TEXT NOT NULL PRIMARY KEY,
    owner       TEXT NOT NULL,
    claim_type  TEXT NOT NULL,
    scope       TEXT NOT NULL,
    status      TEXT NOT NULL
        CHECK (status IN ('proposed', 'adopted', 'withdrawn', 'superseded')),
    recorded_at TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE INDEX claims_by_time ON claims (recorded_at, id);

CREATE TABLE claim_citations (
    claim_id  TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    PRIMARY KEY (claim_id, memory_id)
);

CREATE INDEX claim_citations_by_memory ON claim_citations (memory_id);
