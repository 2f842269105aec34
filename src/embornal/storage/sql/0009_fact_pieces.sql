-- 0009_fact_pieces: a long fact is embedded in pieces (decision 0011); each piece's vector
-- is kept so that recall can score the fact by its opening and its best piece (decision
-- 0012). Derived from the model like facts.embedding, so not a projection of the log:
-- rebuild keeps it, purge and `reindex --all` clear it. Facts embedded before this
-- migration have no pieces and score by their single vector until reindexed.
-- A rowid table: its 1.5-3 KiB vectors stay on the row's page (a WITHOUT ROWID table
-- would move them to overflow pages, twice as slow to score).
CREATE TABLE fact_pieces (
    fact_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    embedding BLOB NOT NULL
);
CREATE UNIQUE INDEX fact_pieces_fact ON fact_pieces (fact_id, idx);
