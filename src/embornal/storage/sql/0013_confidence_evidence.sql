-- The justification spine (decision 0032): the folded confidence of each fact and
-- when it was last vouched for, and its evidence, append-only. Both are projections of
-- FactStored, FactConfirmed, FactContradicted and FactEvidenceAdded; a purge empties the
-- evidence's value and note (the rows stay: that evidence was given, and when).
ALTER TABLE facts ADD COLUMN confidence REAL;
ALTER TABLE facts ADD COLUMN last_confirmed_at TEXT;

CREATE TABLE fact_evidence (
    fact_id       TEXT    NOT NULL REFERENCES facts (id),
    seq           INTEGER NOT NULL,
    evidence_type TEXT    NOT NULL,
    value         TEXT    NOT NULL,
    note          TEXT,
    recorded_at   TEXT    NOT NULL,
    actor         TEXT    NOT NULL,
    PRIMARY KEY (fact_id, seq)
) WITHOUT ROWID;
