-- Who may see a fact (decision 0038): its visibility in text form, NULL for
-- shared (every fact stored before, and the default), 'private' or 'restricted:a,b'; and the
-- allow-list of each restricted fact, one row a name, read by the access filter. Both are
-- projections of FactStored and FactVisibilityChanged.
ALTER TABLE facts ADD COLUMN visibility TEXT;

CREATE TABLE fact_visibility_allow (
    fact_id TEXT NOT NULL REFERENCES facts (id),
    subject TEXT NOT NULL,
    PRIMARY KEY (fact_id, subject)
) WITHOUT ROWID;
