-- 0009_fact_pieces: a long fact is embedded in pieces (decision 0011); each piece's vector
-- is kept so that recall can score the fact by its opening and its best piece (decision
-- 0012). Derived from the model like facts.embedding, so not a projection of the log:
-- rebuild keeps it, purge and `reindex --all` clear it. Facts embedded before this
-- migration have no pieces and score by their single vector until reindexed.
CREATE TABLE fact_pieces (
    fact_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (fact_id, idx)
) WITHOUT ROWID;
