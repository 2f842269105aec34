-- 0008_vector_revision: each write of a fact's embedding takes the next revision, so an
-- in-process vector index loads only what changed since it last looked (any process may
-- write). Vectors written before this migration count as written in seq order.
ALTER TABLE facts ADD COLUMN vec_rev INTEGER;
UPDATE facts SET vec_rev = seq WHERE embedding IS NOT NULL;
CREATE INDEX facts_vec_rev ON facts (vec_rev);
