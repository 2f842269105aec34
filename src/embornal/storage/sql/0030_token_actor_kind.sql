-- 0030_token_actor_kind: who holds each token, a person or an assistant: the actor kind of
-- what the token writes (decision 0147). Every token issued before is an assistant's, as
-- decision 0039 had it, and a replay of its TokenIssued (no actor_kind) gives the same.
ALTER TABLE tokens ADD COLUMN actor_kind TEXT NOT NULL DEFAULT 'assistant'
    CHECK (actor_kind IN ('person', 'assistant'));
