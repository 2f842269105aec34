"""Proposals and retention behave the same on a local memory and over the REST API; a
token is an assistant's (decision 0039), so over REST only the policy lets it decide."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import AccessDenied, Conflict, InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.wire import to_wire


def test_propose_list_show_on_both_sides(alice: MemoryAPI) -> None:
    made = alice.propose(
        [{"type": "create", "path": "/drafts/a", "content": "The quokka draft."}],
        title="From a chat",
        source="chat",
    )
    assert made.status == "open" and made.proposer == "alice" and made.title == "From a chat"
    assert [p.id for p in alice.proposals(status="open")] == [made.id]
    assert alice.proposal(made.id[:10]).items[0].fields["content"] == "The quokka draft."
    assert alice.recall("quokka", reinforce=False) == []
    with pytest.raises(NotFound):
        alice.proposal("01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    with pytest.raises(InvalidInput):
        alice.propose([{"type": "delete", "fact_id": "x"}])


def test_a_person_decides_an_assistant_is_refused(alice: MemoryAPI, side: str) -> None:
    made = alice.propose([{"type": "create", "path": "/drafts/b", "content": "The okapi note."}])
    if side == "remote":  # a token: an assistant, and the policy lets no assistant decide
        with pytest.raises(AccessDenied, match="a person decides"):
            alice.approve(made.id)
        with pytest.raises(AccessDenied):
            alice.reject(made.id, reason="no")
        assert alice.proposal(made.id).status == "open"
        return
    done = alice.approve(made.id)
    assert done.status == "approved" and done.items[0].applied is True
    assert alice.recall("okapi", reinforce=False)[0].fact.path == "/drafts/b"
    with pytest.raises(Conflict):
        alice.approve(made.id)


def test_another_subject_never_learns_of_a_hidden_proposal(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.store("/private/alice", "Alice's own.")
    made = alice.propose([{"type": "archive", "fact_id": mine.id}])
    assert bob.proposals() == []
    with pytest.raises(NotFound, match="no proposal with id"):
        bob.proposal(made.id)


def test_retention_and_prune_on_both_sides(alice: MemoryAPI) -> None:
    fact = alice.store("/notes/r", "A note to score.")
    scores = alice.retention(lowest=1000)
    assert fact.id in {s.fact_id for s in scores}
    assert all(s.score is None or 0.0 <= s.score <= 1.0 for s in scores)
    result = alice.prune(threshold=1.0, limit=5)
    assert result.proposal is not None and result.proposal.source == "prune"
    assert 1 <= result.candidates <= 5
    assert alice.show(fact.id).fact.state == "active"  # nothing archived
    with pytest.raises(InvalidInput):
        alice.prune(threshold=2.0)


def test_the_proposal_wire_shapes_match_across_sides(open_as: object, memory: Memory) -> None:
    local = memory.as_subject("alice")
    made = local.propose([{"type": "create", "path": "/same/p", "content": "Same drafts."}])
    either = open_as("alice")  # type: ignore[operator]
    assert to_wire(either.proposal(made.id)) == to_wire(local.proposal(made.id))
    assert to_wire(either.proposals()) == to_wire(local.proposals())


def test_link_and_merge_items_on_both_sides(alice: MemoryAPI, memory: Memory) -> None:
    ana = alice.store("/people/ana", "Ana.", kind="person", attributes={"full_name": "Ana Lima"})
    other = alice.store("/people/ana2", "A.", kind="person", attributes={"full_name": "A. Lima"})
    made = alice.propose(
        [
            {"type": "create", "path": "/notes/lunch", "content": "Lunch with Ana."},
            {"type": "link", "source": "#1", "relation": "about", "target": ana.id},
            {"type": "merge", "survivor": ana.id, "source": other.id, "reason": "one Ana"},
        ]
    )
    new = made.items[0].fact_id
    assert [(i.type, i.fact_id) for i in made.items] == [
        ("create", new),
        ("link", new),
        ("merge", ana.id),
    ]
    assert made.items[1].fields["source"] == new
    with pytest.raises(InvalidInput, match="names no earlier item"):
        alice.propose([{"type": "link", "source": "#1", "relation": "about", "target": ana.id}])
    memory.as_subject("alice").approve(made.id)  # a person decides (a token: an assistant)
    assert alice.proposal(made.id).status == "approved"
    assert new is not None
    assert [n.fact.id for n in alice.links(new, direction="out").nodes] == [ana.id]
    assert alice.show(other.id).fact.state == "forgotten"


def test_ingest_proposes_about_links_on_both_sides(alice: MemoryAPI) -> None:
    ana = alice.store("/people/ana", "Ana.", kind="person", attributes={"full_name": "Ana Lopez"})
    made = alice.ingest("User: Remember that Ana Lopez lives in Porto.\n", name="chat")
    assert [i.type for i in made.items] == ["create", "link"]
    assert made.items[1].fields == {
        "source": made.items[0].fact_id,
        "relation": "about",
        "target": ana.id,
        "reason": "mentions Ana Lopez",
    }
