"""Proposals through the Python API: drafts stay out of every projection until approved,
an approval applies its items atomically (or nothing), two approvals race to one, a
configured policy may approve and is recorded as the approver, an assistant decides only
when the policy says so (decision 0055)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.race_helpers import after_first_load

from embornal import FixedClock, Memory
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.errors import AccessDenied, Conflict, InvalidInput, NotFound, ProposalChanged


def _drafts(memory: Memory) -> tuple[str, str, list[dict[str, object]]]:
    old = memory.store("/notes/old", "The build uses make.")
    typed = memory.store("/people/ana", "Ana.", kind="person", attributes={"full_name": "Ana"})
    items: list[dict[str, object]] = [
        {"type": "create", "path": "/notes/new", "content": "The zebracorn draft."},
        {"type": "update", "fact_id": typed.id, "attributes": {"notes": "likes tea"}},
        {"type": "archive", "fact_id": old.id, "reason": "replaced"},
    ]
    return old.id, typed.id, items


def test_a_draft_is_in_no_projection_until_approved(memory: Memory) -> None:
    old, typed, items = _drafts(memory)
    before = len(list(memory._store.read_all()))
    made = memory.propose(items, title="From a chat", source="chat-1", reason="review me")
    assert made.status == "open" and [i.number for i in made.items] == ["1", "2", "3"]
    new_id = made.items[0].fact_id
    assert new_id is not None
    assert memory.recall("zebracorn", reinforce=False) == []
    with pytest.raises(NotFound):
        memory.show(new_id)
    assert memory.show(old).fact.state == "active"
    assert "notes" not in memory.show(typed).fact.attributes
    assert len(list(memory._store.read_all())) == before + 1  # the proposal's event alone
    listed = memory.proposals()
    assert [(p.id, p.status, p.item_count, p.source) for p in listed] == [
        (made.id, "open", 3, "chat-1")
    ]
    assert memory.verify() == []

    done = memory.approve(made.id, reason="looks right")
    assert done.status == "approved" and [i.applied for i in done.items] == [True] * 3
    assert done.decided_by == "default"
    assert [h.fact.id for h in memory.recall("zebracorn", reinforce=False)] == [new_id]
    assert memory.show(old).fact.state == "forgotten"
    assert memory.show(typed).fact.attributes["notes"] == "likes tea"
    why = memory.history(old)[-1].reason
    assert why == f"proposal {made.id} item 3: replaced"
    assert memory.proposals(status="approved")[0].applied_count == 3
    assert memory.verify() == []
    memory.rebuild()
    assert memory.verify() == [] and memory.proposal(made.id).status == "approved"


def test_approve_some_items_declines_the_rest(memory: Memory) -> None:
    old, _, items = _drafts(memory)
    made = memory.propose(items)
    done = memory.approve(made.id[:12].lower(), items=["3"])
    assert [i.applied for i in done.items] == [False, False, True]
    assert memory.recall("zebracorn", reinforce=False) == []
    assert memory.show(old).fact.state == "forgotten"


def test_an_item_that_no_longer_applies_writes_nothing(memory: Memory) -> None:
    old, typed, items = _drafts(memory)
    made = memory.propose(items)
    memory.forget(old, reason="meanwhile")
    before = len(list(memory._store.read_all()))
    with pytest.raises(Conflict, match=r"item 3: fact .* is already forgotten"):
        memory.approve(made.id)
    assert len(list(memory._store.read_all())) == before
    assert memory.recall("zebracorn", reinforce=False) == []
    assert "notes" not in memory.show(typed).fact.attributes
    assert memory.proposal(made.id).status == "open"
    assert memory.approve(made.id, items=["1", "2"]).status == "approved"


def test_approving_a_decided_proposal_is_an_error(memory: Memory) -> None:
    _, _, items = _drafts(memory)
    made = memory.propose(items)
    rejected = memory.reject(made.id, reason="not true")
    assert rejected.status == "rejected" and rejected.reason == "not true"
    assert [i.applied for i in rejected.items] == [False, False, False]
    with pytest.raises(Conflict, match="is rejected; only an open one can be approved"):
        memory.approve(made.id)
    with pytest.raises(Conflict, match="is rejected"):
        memory.reject(made.id, reason="again")
    with pytest.raises(InvalidInput, match="reason is required"):
        memory.reject(made.id, reason=" ")
    assert memory.recall("zebracorn", reinforce=False) == []


def test_two_approvals_racing_leave_one(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    old, _, items = _drafts(memory)
    made = memory.propose(items[2:])
    other = memory.as_subject("default")
    outcome: list[str] = []
    loads = after_first_load(
        memory, monkeypatch, lambda: outcome.append(other.approve(made.id).status)
    )
    with pytest.raises(Conflict, match="is approved"):
        memory.approve(made.id)
    assert outcome == ["approved"] and len(loads) >= 2
    forgets = [e for e in memory.history(old) if e.type == "FactForgotten"]
    assert len(forgets) == 1


def _swap(memory: Memory) -> tuple[Memory, str, int]:
    """alice opens a proposal and default reads it; alice then swaps its item for
    another: (alice, the proposal, the version default read)."""
    memory.token_add("alice")  # the default token rules: write on every path
    alice = memory.as_subject("alice")
    made = alice.propose([{"type": "create", "path": "/notes/budget", "content": "Budget ok."}])
    seen = memory.proposal(made.id)
    assert seen.version == 1 and seen.status == "open"
    swap = {"type": "create", "path": "/notes/budget", "content": "Wire the budget to 666."}
    alice.edit_proposal(made.id, drop=["1"], add=[swap])
    return alice, made.id, seen.version


def test_an_approval_of_the_version_read_refuses_an_edit_since(memory: Memory) -> None:
    _, pid, seen = _swap(memory)
    before = len(list(memory._store.read_all()))
    with pytest.raises(ProposalChanged, match=f"changed since version {seen}") as refused:
        memory.approve(pid, version=seen)
    assert refused.value.exit_code == 4 and "proposal show" in (refused.value.hint or "")
    assert len(list(memory._store.read_all())) == before  # nothing was written
    assert memory.recall("wire budget 666", reinforce=False) == []
    now = memory.proposal(pid)
    assert now.status == "open" and now.version == seen + 1
    done = memory.approve(pid, version=now.version)  # the version read now: applied
    assert done.status == "approved" and done.version == seen + 2
    with pytest.raises(InvalidInput, match="whole number from 1"):
        memory.approve(pid, version=0)


def test_an_edit_between_the_load_and_the_append_is_refused(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, _, items = _drafts(memory)
    made = memory.propose(items[2:])  # archive old: approving loads its state
    other = memory.as_subject("default")
    loads = after_first_load(
        memory,
        monkeypatch,
        lambda: other.edit_proposal(
            made.id, add=[{"type": "create", "path": "/notes/x", "content": "Slipped in."}]
        ),
    )
    with pytest.raises(ProposalChanged):
        memory.approve(made.id, version=made.version)
    assert loads and memory.show(old).fact.state == "active"
    assert memory.proposal(made.id).status == "open"


def test_a_bad_proposal_is_refused_whole(memory: Memory) -> None:
    old, _, _ = _drafts(memory)
    before = len(list(memory._store.read_all()))
    with pytest.raises(NotFound, match="item 2: no fact with id"):
        memory.propose(
            [
                {"type": "archive", "fact_id": old},
                {"type": "archive", "fact_id": "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"},
            ]
        )
    with pytest.raises(InvalidInput, match="one item per fact"):
        memory.propose([{"type": "archive", "fact_id": old}, {"type": "archive", "fact_id": old}])
    with pytest.raises(InvalidInput, match="the root"):
        memory.propose([{"type": "create", "path": "/", "content": "x"}])
    with pytest.raises(Conflict, match=r"only an active fact can be superseded"):
        memory.forget(old, reason="x")
        memory.propose([{"type": "supersede", "fact_id": old, "content": "y"}])
    with pytest.raises(NotFound, match="no proposal with id"):
        memory.proposal("01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    with pytest.raises(InvalidInput, match="status must be one of open, approved, rejected"):
        memory.proposals(status="pending")
    assert len(list(memory._store.read_all())) == before + 1  # the forget alone


def test_edit_drops_and_adds(memory: Memory) -> None:
    old, _, items = _drafts(memory)
    made = memory.propose(items)
    edited = memory.edit_proposal(
        made.id,
        drop=["1", "2"],
        add=[{"type": "create", "path": "/notes/more", "content": "Another draft."}],
    )
    assert [i.number for i in edited.items] == ["3", "4"]
    assert memory.proposals()[0].item_count == 2
    memory.approve(made.id)
    assert memory.show(old).fact.state == "forgotten"
    assert memory.recall("another draft", reinforce=False)[0].fact.path == "/notes/more"
    with pytest.raises(Conflict, match="only an open one can be edited"):
        memory.edit_proposal(made.id, drop=["3"])
    assert memory.verify() == []


def test_a_configured_policy_approves_and_is_the_approver(db_path: Path, clock: FixedClock) -> None:
    policy = ProposalPolicy(auto_approve_kinds=("preference",), auto_approve_sources=("sync",))
    with Memory.open(db_path, clock=clock, proposals=policy) as memory:
        pref = [
            {
                "type": "create",
                "path": "/prefs/tea",
                "content": "Prefers green tea.",
                "kind": "preference",
                "attributes": {"polarity": "likes"},
            }
        ]
        auto = memory.propose(pref)
        assert auto.status == "approved" and auto.decided_by == "policy:kind=preference"
        assert memory.recall("green tea", reinforce=False)
        plain = [{"type": "create", "path": "/notes/x", "content": "A plain note."}]
        assert memory.propose(plain).status == "open"
        synced = memory.propose(plain, source="sync")
        assert synced.decided_by == "policy:source=sync"


def test_an_assistant_decides_only_when_the_policy_says(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as memory:
        _, _, items = _drafts(memory)
        assistant = memory.as_subject("default", "assistant")
        made = assistant.propose(items)  # an assistant may always propose
        with pytest.raises(AccessDenied, match="a person decides") as e:
            assistant.approve(made.id)
        assert "embornal proposal approve" in (e.value.hint or "")
        with pytest.raises(AccessDenied):
            assistant.reject(made.id, reason="no")
        assert memory.proposal(made.id).status == "open"
    allowing = ProposalPolicy(assistants_decide=True)
    with Memory.open(db_path, clock=clock, proposals=allowing) as memory:
        assistant = memory.as_subject("default", "assistant")
        assert assistant.approve(made.id).status == "approved"


def test_a_subject_sees_only_the_proposals_it_may_read(memory: Memory) -> None:
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    memory.token_add("alice")  # the rules a token's subject gets: its own facts
    memory.token_add("bob")
    mine = alice.store("/private/alice", "Alice's own note.")
    made = alice.propose([{"type": "archive", "fact_id": mine.id}])
    assert [p.id for p in alice.proposals()] == [made.id]
    assert bob.proposals() == []
    for call in (
        lambda: bob.proposal(made.id),
        lambda: bob.approve(made.id),
        lambda: bob.reject(made.id, reason="x"),
    ):
        with pytest.raises(NotFound, match=f"no proposal with id {made.id}"):
            call()
    with pytest.raises(NotFound, match="item 1: no fact with id"):
        bob.propose([{"type": "archive", "fact_id": mine.id}])


FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def test_a_memory_of_release_0_1_0_gets_proposals(tmp_path: Path, clock: FixedClock) -> None:
    import gzip
    import shutil

    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as memory:
        assert "0019_proposals" in memory.migrations_applied
        assert memory.proposals() == []
        old = memory.recall(None, limit=1, reinforce=False)[0].fact
        made = memory.propose([{"type": "archive", "fact_id": old.id, "reason": "old"}])
        assert memory.approve(made.id).status == "approved"
        assert memory.show(old.id).fact.state == "forgotten"
        assert memory.verify() == []
        assert memory.retention(lowest=1)


def test_an_auto_approve_the_proposer_may_not_apply_waits(db_path: Path, clock: FixedClock) -> None:
    policy = ProposalPolicy(auto_approve_sources=("sync",))
    with Memory.open(db_path, clock=clock, proposals=policy) as memory:
        memory.token_add("alice")
        memory.token_add("bob")
        public = memory.as_subject("alice").store(
            "/shared", "Everyone reads this.", tags=["visibility=public"]
        )
        bob = memory.as_subject("bob")
        made = bob.propose([{"type": "archive", "fact_id": public.id}], source="sync")
        assert made.status == "open"  # bob may not forget it: a person decides
        with pytest.raises(AccessDenied, match="item 1"):
            bob.approve(made.id)
        assert memory.as_subject("alice").approve(made.id).status == "approved"


def test_an_item_replaced_whole_keeps_its_number_and_fact_id(memory: Memory) -> None:
    """A whole item in ``replace`` (naming no ``new_id``) keeps the number and the id the
    reviewer saw; a stale ``version``, an unknown number, a bad item or a ``replace`` that
    is no object change nothing."""
    made = memory.propose([{"type": "create", "path": "/notes/tea", "content": "Likes tea."}])
    green = {"type": "create", "path": "/notes/tea", "content": "Likes green tea."}
    done = memory.edit_proposal(made.id, replace={"1": green}, version=1)
    (item,) = done.items
    assert (item.number, item.fact_id, done.version) == ("1", made.items[0].fact_id, 2)
    with pytest.raises(ProposalChanged, match="changed since version 1"):
        memory.edit_proposal(made.id, replace={"1": green}, version=1)
    with pytest.raises(InvalidInput, match="has no item '9'"):
        memory.edit_proposal(made.id, replace={"9": green})
    with pytest.raises(InvalidInput, match="needs 'content'"):
        memory.edit_proposal(made.id, replace={"1": {"type": "create", "path": "/n"}})
    with pytest.raises(InvalidInput, match="replace is an object of item number: item"):
        memory.edit_proposal(made.id, replace=[green])  # type: ignore[arg-type]
    assert memory.proposal(made.id) == done
    assert memory.approve(made.id).items[0].fact_id == made.items[0].fact_id
