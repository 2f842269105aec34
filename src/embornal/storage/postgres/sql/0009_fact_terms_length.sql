-- Each posting keeps its document's length, so BM25 is ranked from one covering index
-- of fact_terms, without reading a facts row per posting (decision 0121).
ALTER TABLE fact_terms DROP CONSTRAINT fact_terms_pkey;
DROP INDEX fact_terms_seq;
ALTER TABLE fact_terms ADD COLUMN dl INTEGER NOT NULL DEFAULT 0;
UPDATE fact_terms t SET dl = f.term_count FROM facts f WHERE f.seq = t.seq;
ALTER TABLE fact_terms ADD PRIMARY KEY (term, seq) INCLUDE (tf, dl);
CREATE INDEX fact_terms_seq ON fact_terms (seq);
ANALYZE fact_terms;
