"""The history protocol on both sides (a local memory and the remote client), and what a
subject may not read stays out of every protocol read (the same error as for a missing
fact)."""

from __future__ import annotations

import pytest

from embornal.errors import Conflict, InvalidInput, NotFound, ProtocolViolation
from embornal.interfaces.api import MemoryAPI


def test_the_protocol_loop_on_both_sides(alice: MemoryAPI) -> None:
    s = alice.remember("Ada leads research.", source="ada", session="s-1")
    assert (s.stage, s.tier, s.fact.path, s.session) == ("working", "archive", "/inbox/s-1", "s-1")
    with pytest.raises(ProtocolViolation):
        alice.pin(s.fact.id)
    assert [d.fact.id for d in alice.due_for_consolidation()] == [s.fact.id]
    assert alice.memory_status(s.fact.id) == s
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


def test_memory_status_tells_where_a_memory_stands_and_records_nothing(
    alice: MemoryAPI,
) -> None:
    s = alice.remember("Ada may prefer tea.", tier="interpretation", session="s-2")
    before = alice.history(s.fact.id)
    status = alice.memory_status(s.fact.id[:16])
    assert (status.fact.id, status.stage, status.tier) == (s.fact.id, "working", "interpretation")
    assert (status.sensitive, status.reviewed_at, status.session) == (False, None, "s-2")
    assert alice.history(s.fact.id) == before
    promoted = alice.promote(s.fact.id, reason="asked twice")
    assert alice.memory_status(s.fact.id).stage == promoted.stage == "consolidated"
    with pytest.raises(NotFound):
        alice.memory_status("01ZZZZZZZZZZZZZZZZZZZZZZZZ")


def test_testimony_at_capture_is_refused_on_both_sides(alice: MemoryAPI) -> None:
    with pytest.raises(InvalidInput):
        alice.remember("It happened.", tier="testimony")


def test_a_hidden_memory_looks_missing_to_every_protocol_call(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.remember("Alice's private thought.", path="/private/alice").fact.id
    for call in (
        lambda: bob.provenance(mine),
        lambda: bob.memory_status(mine),
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


def test_the_audit_log_gives_each_decision_with_its_reason(alice: MemoryAPI) -> None:
    """Decision 0099: ``audit_log`` is every decision with its reason, the newest
    first; a pin of working material is refused and leaves nothing to audit."""
    s = alice.remember("I am Ada's assistant.", source="ada")
    with pytest.raises(ProtocolViolation):
        alice.pin(s.fact.id, reason="too early")
    alice.promote(s.fact.id, reason="stated by the user")
    alice.pin(s.fact.id, reason="who I am")
    alice.unpin(s.fact.id, reason="not any more")
    alice.unpin(s.fact.id)  # a no-op: audited as one, with the legacy note
    alice.forget(s.fact.id, reason="moved on")
    entries = alice.chronicle.audit_log(limit=20)
    mine = [e for e in entries if e.memory_id == s.fact.id]
    assert [(e.action, e.actor) for e in mine] == [
        ("forget", "alice"),
        ("unpin_noop", "alice"),
        ("unpin", "alice"),
        ("pin", "alice"),
        ("promote", "alice"),
        ("remember", "alice"),
        ("store", "alice"),
    ]
    reasons = {e.action: e.reason for e in mine}
    assert reasons["promote"] == "stated by the user" and reasons["pin"] == "who I am"
    assert reasons["forget"] == "moved on" and reasons["unpin"] == "not any more"
    assert "legacy unpin" in (reasons["unpin_noop"] or "")
    positions = [e.position for e in entries]
    assert positions == sorted(positions, reverse=True)
    assert len(alice.chronicle.audit_log(limit=2)) == 2


def test_the_audit_log_leaves_out_what_a_subject_may_not_read(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.remember("Alice's private thought.", path="/private/alice").fact.id
    alice.promote(mine, reason="kept")
    assert any(e.memory_id == mine for e in alice.chronicle.audit_log(limit=50))
    assert all(e.memory_id != mine for e in bob.chronicle.audit_log(limit=50))
    with pytest.raises(InvalidInput):
        alice.chronicle.audit_log(limit=0)


def test_narratives_on_both_sides(alice: MemoryAPI) -> None:
    """docs/model.md, Narratives: a forgotten dependency withholds the narrative; restoring does not
    silently re-approve it; review does."""
    fid = alice.remember("We ship on Fridays.", source="standup").fact.id
    alice.promote(fid, reason="agreed")
    n = alice.chronicle.narrate(
        "Fridays.", reason="weekly", memory_ids=[fid], scope="project", coverage="week 1"
    )
    assert (n.version, n.usable, n.memory_ids, n.coverage) == (1, True, (fid,), "week 1")
    view = alice.chronicle.current_narrative(scope="project")
    assert view.narrative == n
    alice.forget(fid, reason="changed")
    view = alice.chronicle.current_narrative(scope="project")
    assert view.narrative is None and view.narrative_review is not None
    assert "restore(" in view.narrative_review.hint
    with pytest.raises(Conflict):
        alice.chronicle.review_narrative(n.narrative_id, note="fine")
    alice.restore(fid, reason="back")
    assert alice.chronicle.current_narrative(scope="project").narrative is None
    (listed,) = alice.chronicle.list_narratives()
    assert listed.content is None and listed.withheld
    (past,) = alice.chronicle.narrative_history(scope="project")
    assert past.content == "Fridays."
    assert alice.chronicle.review_narrative(n.narrative_id, note="compared").usable
    assert alice.chronicle.current_narrative(scope="project").narrative is not None
    with pytest.raises(NotFound, match="no claim with id"):
        alice.chronicle.narrate("x", reason="r", claim_ids=["C1"])
    plain = alice.chronicle.narrate("An unlinked account.", reason="r", scope="other")
    assert plain.provenance_status == "unlinked" and plain.warnings


def test_a_narrative_is_hidden_from_a_subject_who_may_not_read_a_dependency(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.remember("Alice's private plan.", path="/private/alice").fact.id
    alice.promote(mine, reason="kept")
    n = alice.chronicle.narrate("Alice plans.", reason="r", memory_ids=[mine], scope="s")
    alice.chronicle.narrate("Alice's unlinked note.", reason="r", scope="t")
    assert bob.chronicle.list_narratives() == []
    assert bob.chronicle.narrative_history() == []
    view = bob.chronicle.current_narrative(scope="s")
    assert view.narrative is None and view.narrative_review is None
    with pytest.raises(NotFound):
        bob.chronicle.review_narrative(n.narrative_id, note="x")
    with pytest.raises(NotFound):
        bob.chronicle.narrate("Bob's take.", reason="r", memory_ids=[mine])
    assert len(alice.chronicle.list_narratives()) == 2
