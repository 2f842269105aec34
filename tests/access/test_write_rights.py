"""Each change to a fact takes the right that its effect needs, whatever the interface."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import AccessDenied


@pytest.fixture
def bob(memory: Memory) -> Memory:
    """A subject with the rules a new token gets: write anywhere, delete its own facts."""
    memory.token_add("bob")
    return memory.as_subject("bob", "assistant")


def test_superseding_another_owners_fact_takes_the_delete_right(
    memory: Memory, bob: Memory
) -> None:
    public = memory.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    assert bob.show(public.id).fact.id == public.id  # bob may read it ...
    with pytest.raises(AccessDenied, match="bob"):  # ... and may not forget it ...
        bob.forget(public.id, reason="no")
    with pytest.raises(AccessDenied, match="bob may not write"):  # ... nor replace it
        bob.supersede(public.id, "The offsite is cancelled.")
    memory.policy_add("p", ["bob", "path:/team/*", "write", "allow"])
    with pytest.raises(AccessDenied, match="delete"):  # write alone does not remove it
        bob.supersede(public.id, "The offsite is cancelled.")
    assert memory.show(public.id).fact.state == "active"
    assert [h.fact.id for h in bob.recall("offsite", reinforce=False)] == [public.id]
    assert [v.fact.id for v in memory.cat("/team/news")] == [public.id]


def test_superseding_ones_own_fact_or_with_a_delete_rule_works(memory: Memory, bob: Memory) -> None:
    own = bob.store("/bob/notes", "Bob uses vim.")
    assert bob.supersede(own.id, "Bob uses helix.").supersedes_id == own.id
    public = memory.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    memory.policy_add("p", ["bob", "path:/team/*", "write", "allow"])
    memory.policy_add("p", ["bob", "path:/team/*", "delete", "allow"])
    new = bob.supersede(public.id, "The offsite is in June.")
    assert new.supersedes_id == public.id
    assert memory.show(public.id).fact.state == "superseded"


def test_a_refusal_says_what_needs_the_right_after_a_separator(memory: Memory, bob: Memory) -> None:
    """The merge's and the supersede's 403: the right, the path, then why in parentheses."""
    a = memory.store(
        "/team/ana",
        "Ana.",
        kind="person",
        tags=["visibility=public"],
        attributes={"full_name": "Ana Lima"},
    )
    b = memory.store(
        "/team/ana2",
        "A. Lima.",
        kind="person",
        tags=["visibility=public"],
        attributes={"full_name": "A. Lima"},
    )
    with pytest.raises(AccessDenied) as merged:
        bob.merge(a.id, b.id, reason="one Ana")
    assert merged.value.message == (
        "subject bob may not write at /team/ana (a merge changes the survivor's attributes)"
    )
    with pytest.raises(AccessDenied) as superseded:
        bob.supersede(a.id, "Ana Lima.")
    assert superseded.value.message.endswith(f"at /team/ana (superseding fact {a.id} removes it)")
