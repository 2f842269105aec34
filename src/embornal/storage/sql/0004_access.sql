-- 0004_access: Casbin policies and bearer tokens, both projections of events.

CREATE TABLE casbin_rule (
    id    INTEGER PRIMARY KEY,
    ptype TEXT NOT NULL,
    v0    TEXT NOT NULL DEFAULT '',
    v1    TEXT NOT NULL DEFAULT '',
    v2    TEXT NOT NULL DEFAULT '',
    v3    TEXT NOT NULL DEFAULT '',
    v4    TEXT NOT NULL DEFAULT '',
    v5    TEXT NOT NULL DEFAULT '',
    UNIQUE (ptype, v0, v1, v2, v3, v4, v5)
);

-- Only the SHA-256 of a token is kept; the token is shown once.
CREATE TABLE tokens (
    id          TEXT PRIMARY KEY,
    subject     TEXT NOT NULL,
    name        TEXT,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    expires_at  TEXT,
    revoked_at  TEXT
);
CREATE INDEX tokens_subject ON tokens (subject);

INSERT INTO counters (name, value) VALUES ('policy_version', 0);
