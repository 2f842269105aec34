"""Ingest behaves the same on a local memory and over the REST API: one proposal of
drafted memories, nothing stored before approval."""

from __future__ import annotations

import pytest

from embornal.errors import InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI


def test_ingest_opens_one_proposal_on_both_sides(alice: MemoryAPI) -> None:
    made = alice.ingest("User: remember that the quokka lives on Rottnest\n", name="chat")
    assert made.status == "open" and made.proposer == "alice"
    assert [i.fields["content"] for i in made.items] == ["The quokka lives on Rottnest"]
    assert made.items[0].fields["evidence"][0]["note"] == "line 1 of chat"
    assert alice.recall("quokka", reinforce=False) == []
    assert [p.id for p in alice.proposals(status="open")] == [made.id]


def test_ingest_errors_are_the_same_on_both_sides(alice: MemoryAPI) -> None:
    with pytest.raises(NotFound):
        alice.ingest("User: hello?", name="x")
    with pytest.raises(InvalidInput):
        alice.ingest("User: remember that x is y", extractor="magic")
