-- 0025_claims: the claims ledger's projections (decision 0081).
-- Both are rebuilt from the log (the events of each `claim:<id>` stream). They hold no user
-- text: the statement, attribution and evidence texts are read from the claim's stream,
-- which is also how a claim is read as the ledger held it at a past record time.

-- One row per claim: who recorded it (its owner), its type, scope and status, when it was
-- recorded and when its stream last changed.
CREATE TABLE claims (
    id          TEXT NOT NULL PRIMARY KEY,
    owner       TEXT NOT NULL,
    claim_type  TEXT NOT NULL,
    scope       TEXT NOT NULL,
    status      TEXT NOT NULL
        CHECK (status IN ('proposed', 'adopted', 'withdrawn', 'superseded')),
    recorded_at TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX claims_by_time ON claims (recorded_at, id);

-- Every memory a claim ever cited (what it is about, and its evidence, retracted too): the
-- reads decide with it who may see a claim, and a purge which claims it reaches.
CREATE TABLE claim_citations (
    claim_id  TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    PRIMARY KEY (claim_id, memory_id)
) WITHOUT ROWID;

CREATE INDEX claim_citations_by_memory ON claim_citations (memory_id);
