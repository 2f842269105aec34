-- Importance and lifetime (decisions 0034, 0035): each fact's pin and explicit user
-- weight (FactImportanceAdjusted), its retention policy and its date (FactStored.lifetime,
-- FactLifetimeChanged) and, for an until or ephemeral lifetime, the moment it leaves
-- recall (derived when the event is projected; compared with the clock when read).
-- Existing facts: not pinned, no weight, standard, never expiring.
ALTER TABLE facts ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE facts ADD COLUMN user_weight REAL;
ALTER TABLE facts ADD COLUMN lifetime TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE facts ADD COLUMN lifetime_until TEXT;
ALTER TABLE facts ADD COLUMN expires_at TEXT;
CREATE INDEX facts_expiring ON facts (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX facts_pinned ON facts (seq) WHERE pinned = 1;
