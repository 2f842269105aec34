-- Proposals (decision 0055): one row per proposal, a projection of its stream
-- (proposal:<id>). The items themselves stay in the log (ProposalOpened, ProposalEdited):
-- a draft is in no projection of facts until an approval applies it.
CREATE TABLE proposals (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    title TEXT,
    source TEXT,
    proposer TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    item_count INTEGER NOT NULL,
    decided_by TEXT,
    decided_at TEXT,
    applied_count INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE INDEX proposals_by_status ON proposals (status, opened_at);
