"""The history protocol on both sides (a local memory and the remote client), and what a
subject may not read stays out of every protocol read (the same error as for a missing
fact)."""

from __future__ import annotations

import pytest

from embornal.errors import InvalidInput, NotFound, ProtocolViolation
from embornal.interfaces.api import MemoryAPI


def test_the_protocol_loop_on_both_sides(alice: MemoryAPI) -> None:
    s = alice.remember("Ada leads research.", source="ada", session="s-1")
    assert (s.stage, s.tier, s.fact.path, s.session) == ("working", "archive", "/inbox/s-1", "s-1")
    with pytest.raises(ProtocolViolation):
        alice.pin(s.fact.id)
    assert [d.fact.id for d in alice.due_for_consolidation()] == [s.fact.id]
    assert alice.promote(s.fact.id, reason="a role").stage == "consolidated"
    report = alice.corroborate(s.fact.id, "org chart", common_origin=None)
    assert report.satisfied and report.tier == "testimony"
    assert alice.provenance(s.fact.id) == report
    assert alice.pin(s.fact.id, reason="who leads").pinned
    flagged = alice.flag_sensitive(s.fact.id, reason="a permission")
    assert flagged.sensitive and flagged.fact.pinned  # the gate is met: it stays
    i = alice.remember("Ada may prefer mornings.", tier="interpretation")
    with pytest.raises(InvalidInput):
        alice.review(i.fact.id, note=" ")
    assert alice.review(i.fact.id, note="checked").reviewed_at is not None
    assert alice.due_for_review(days=0) == []
    alice.unpin(s.fact.id, reason="done")
    alice.forget(s.fact.id, reason="moved on")
    (gone,) = alice.list_forgotten()
    assert (gone.fact.id, gone.reason, gone.actor) == (s.fact.id, "moved on", "alice")


def test_testimony_at_capture_is_refused_on_both_sides(alice: MemoryAPI) -> None:
    with pytest.raises(ProtocolViolation):
        alice.remember("It happened.", tier="testimony")


def test_a_hidden_memory_looks_missing_to_every_protocol_call(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.remember("Alice's private thought.", path="/private/alice").fact.id
    for call in (
        lambda: bob.provenance(mine),
        lambda: bob.promote(mine, reason="x"),
        lambda: bob.corroborate(mine, "y"),
        lambda: bob.review(mine, note="z"),
        lambda: bob.flag_sensitive(mine, reason="w"),
    ):
        with pytest.raises(NotFound):
            call()
    with pytest.raises(NotFound):
        bob.provenance("01ZZZZZZZZZZZZZZZZZZZZZZZZ")
    alice.forget(mine, reason="private")
    assert all(m.fact.id != mine for m in bob.due_for_consolidation())
    assert all(m.fact.id != mine for m in bob.list_forgotten())
