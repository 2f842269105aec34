"""A purge erases the purged fact's text from the proposals that hold or name it too: the
draft it was created from, a supersede's new text, a reason typed about it (purge is the
irreversible erase; nothing of the text may stay in the log)."""

from __future__ import annotations

import json

from embornal import Memory
from embornal.storage.sqlite.connect import connect

SECRET = "the vault code is 4-8-15-16"


def _log_text(memory: Memory) -> str:
    conn = connect(memory.db_path)
    try:
        rows = conn.execute("SELECT payload, coalesce(reason, '') FROM events").fetchall()
        return "\n".join(f"{r[0]} {r[1]}" for r in rows)
    finally:
        conn.close()


def test_the_draft_of_an_approved_fact_is_erased_with_it(memory: Memory) -> None:
    made = memory.propose(
        [
            {"type": "create", "path": "/secrets", "content": SECRET},
            {"type": "create", "path": "/notes", "content": "An ordinary note."},
        ],
        title="about the vault",
    )
    done = memory.approve(made.id)
    secret_id = done.items[0].fact_id
    assert secret_id is not None and SECRET in _log_text(memory)
    memory.purge(secret_id, reason="a secret")
    assert SECRET not in _log_text(memory) and "about the vault" not in _log_text(memory)
    assert memory.verify() == []
    shown = memory.proposal(made.id)  # still there, its text gone
    assert shown.status == "approved" and shown.title is None
    assert all(SECRET not in json.dumps(i.fields) for i in shown.items)
    assert [v.fact.content for v in memory.cat("/notes")] == ["An ordinary note."]


def test_an_open_proposal_naming_the_fact_loses_its_text(memory: Memory) -> None:
    fact = memory.store("/secrets", SECRET)
    other = memory.store("/notes", "Keep me.")
    made = memory.propose(
        [
            {"type": "supersede", "fact_id": fact.id, "content": SECRET + " and more"},
            {"type": "archive", "fact_id": other.id, "reason": "old"},
        ]
    )
    memory.purge(fact.id, reason="a secret")
    assert SECRET not in _log_text(memory)
    assert memory.verify() == []
    assert memory.proposal(made.id).status == "open"
    assert [p.id for p in memory.proposals(status="open")] == [made.id]


def test_a_purge_leaves_proposals_that_do_not_name_the_fact(memory: Memory) -> None:
    fact = memory.store("/secrets", SECRET)
    made = memory.propose(
        [{"type": "create", "path": "/notes", "content": "Unrelated."}], title="unrelated"
    )
    memory.purge(fact.id, reason="a secret")
    assert memory.proposal(made.id).title == "unrelated"
    assert "Unrelated." in _log_text(memory)
    assert memory.verify() == []
