"""A proposal or claim id prefix is matched only among what the subject may see: bob, who
sees none of default's, gets the same "not found" for a prefix two hidden ones share as
for one that matches nothing, and a prefix he shares with hidden ones finds his own."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import AmbiguousId, NotFound


def _hidden_proposals(mem: Memory) -> list[str]:
    """Two proposals of default bob may not see (new private facts): the same moment, so
    their ids share a prefix."""
    return [
        mem.propose([{"type": "create", "path": "/private", "content": f"note {i}"}]).id
        for i in range(2)
    ]


def _shared_prefix(ids: list[str]) -> str:
    n = 0
    while all(i[n] == ids[0][n] for i in ids):
        n += 1
    return ids[0][:n]


def test_a_proposal_prefix_ignores_the_hidden_ones(mem: Memory) -> None:
    ids = _hidden_proposals(mem)
    prefix = _shared_prefix(ids)
    with pytest.raises(AmbiguousId):  # default sees both
        mem.proposal(prefix)
    mem.token_add("bob")
    bob = mem.as_subject("bob")
    for asked in (prefix, ids[0], prefix[:-1] + ("0" if prefix[-1] != "0" else "1")):
        with pytest.raises(NotFound) as caught:
            bob.proposal(asked)
        assert caught.value.message == f"no proposal with id {asked}"
    own = bob.propose([{"type": "create", "path": "/bob", "content": "mine"}]).id
    assert bob.proposal(_shared_prefix([own, *ids])).id == own  # the one he sees


def test_a_claim_prefix_ignores_the_hidden_ones(mem: Memory) -> None:
    ids = [mem.chronicle.create_claim(f"Plan {i}.", "plan").id for i in range(2)]
    prefix = _shared_prefix(ids)
    with pytest.raises(AmbiguousId):
        mem.chronicle.claim(prefix)
    mem.token_add("bob")
    bob = mem.as_subject("bob")
    for asked in (prefix, ids[0]):
        with pytest.raises(NotFound) as caught:
            bob.chronicle.claim(asked)
        assert caught.value.message == f"no claim with id {asked}"
    own = bob.chronicle.create_claim("My plan.", "plan").id
    assert bob.chronicle.claim(_shared_prefix([own, *ids])).id == own
