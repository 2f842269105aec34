"""A fact's ``superseded_by`` names its successor only to a caller that may read it."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.domain.facts.fact import Fact
from embornal.errors import NotFound


@pytest.fixture
def chain(memory: Memory) -> tuple[Fact, Fact]:
    """A public fact of ``default`` superseded by a private one; bob has token rules."""
    old = memory.store("/team/plan", "The launch is in May.", tags=["visibility=public"])
    new = memory.supersede(old.id, "The launch is in June.", tags=["visibility=private"])
    memory.token_add("bob")
    return old, new


def test_a_hidden_successor_is_not_named(memory: Memory, chain: tuple[Fact, Fact]) -> None:
    old, new = chain
    assert memory.show(old.id).fact.superseded_by == new.id  # the owner sees the chain
    bob = memory.as_subject("bob")
    seen = bob.show(old.id).fact
    assert seen.superseded_by is None
    assert seen.state == "superseded"  # still out of recall, and said so
    with pytest.raises(NotFound):  # its one live fact is the hidden successor
        bob.cat("/team/plan")
    assert [h.fact.id for h in bob.recall("launch", reinforce=False)] == []
    assert [e.stream_id for e in bob.history(old.id)] == [old.id]
    assert new.id not in str(bob.history("/team/plan"))
    # Once bob may read the successor, he sees the link.
    memory.policy_add("p", ["bob", "tag:visibility=private", "read", "allow"])
    assert bob.show(old.id).fact.superseded_by == new.id


def test_a_forget_by_the_caller_does_not_name_it_either(
    memory: Memory, chain: tuple[Fact, Fact]
) -> None:
    old, _ = chain
    memory.policy_add("p", ["bob", "path:/team/*", "delete", "allow"])
    bob = memory.as_subject("bob")
    gone = bob.forget(old.id, reason="stale")
    assert gone.state == "forgotten" and gone.superseded_by is None
    back = bob.restore(old.id, reason="needed")
    assert back.state == "superseded" and back.superseded_by is None
