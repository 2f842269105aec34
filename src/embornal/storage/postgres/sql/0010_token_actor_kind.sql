-- Who holds each token, a person or an assistant: the actor kind of what the token writes
-- (decision 0147). Every token issued before is an assistant's (decision 0039).
ALTER TABLE tokens ADD COLUMN actor_kind TEXT NOT NULL DEFAULT 'assistant'
    CHECK (actor_kind IN ('person', 'assistant'));
