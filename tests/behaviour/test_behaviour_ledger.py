"""Narratives on claims and the claims' and narratives' decisions in the audit log, on
both sides (a local memory and the remote client; decisions 0098, 0099)."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import Conflict, NotFound, ProtocolViolation
from embornal.interfaces.api import MemoryAPI


def _claim(alice: MemoryAPI, path: str = "/alice/release") -> tuple[str, str]:
    fid = alice.store(path, "The release is planned for June.", source="project notice").id
    ledger = alice.chronicle
    c = ledger.create_claim("The release is planned for June.", "plan", reason="from the notice")
    ledger.add_claim_evidence(c.id, memory_id=fid, note="the notice says so")
    ledger.adopt_claim(c.id, reason="the recorded plan")
    return fid, c.id


def test_a_withdrawn_claim_withholds_the_narrative_resting_on_it(alice: MemoryAPI) -> None:
    """memory-as-history: 'revise_claim() or withdraw_claim() changes the adopted account'; the
    same narrative_review notice as for a forgotten memory."""
    _, cid = _claim(alice)
    n = alice.chronicle.narrate(
        "We release in June.", reason="weekly", claim_ids=[cid], scope="project"
    )
    assert n.usable and n.claim_ids == (cid,)
    assert alice.chronicle.current_narrative(scope="project").narrative == n
    alice.chronicle.withdraw_claim(cid, reason="the plan was dropped")
    view = alice.chronicle.current_narrative(scope="project")
    assert view.narrative is None and view.narrative_review is not None
    assert [(i.ref, i.issue, i.live) for i in view.narrative_review.source_issues] == [
        (cid, "claim_withdrawn", True)
    ]
    with pytest.raises(Conflict):
        alice.chronicle.review_narrative(n.narrative_id, note="fine")
    (past,) = alice.chronicle.narrative_history(scope="project")
    assert past.content == "We release in June."


def test_a_proposed_claim_is_refused_naming_adopt_claim(alice: MemoryAPI) -> None:
    c = alice.chronicle.create_claim("A draft plan.", "plan")
    alice.chronicle.add_claim_evidence(c.id, source="a meeting")
    with pytest.raises(ProtocolViolation) as refused:
        alice.chronicle.narrate("x", reason="r", claim_ids=[c.id])
    assert "adopt_claim(" in (refused.value.hint or "")


def test_the_audit_log_lists_claim_and_narrative_decisions_with_reasons(
    alice: MemoryAPI,
) -> None:
    """Decision 0099: 'audit_log(limit?) — every decision with its reason — is a view
    of the event log'."""
    fid, cid = _claim(alice)
    n = alice.chronicle.narrate("June.", reason="weekly synthesis", claim_ids=[cid])
    alice.chronicle.revise_claim(cid, "a delay notice", statement="The release is in July.")
    alice.chronicle.review_narrative(n.narrative_id, note="compared with the revision")
    alice.chronicle.withdraw_claim(cid, reason="cancelled")
    got = [
        (e.action, e.reason, e.claim_id, e.narrative_id)
        for e in alice.chronicle.audit_log(limit=8)
        if e.claim_id or e.narrative_id
    ]
    assert got == [
        ("withdraw_claim", "cancelled", cid, None),
        ("review_narrative", "compared with the revision", None, n.narrative_id),
        ("revise_claim", "a delay notice", cid, None),
        ("narrate", "weekly synthesis", None, n.narrative_id),
        ("adopt_claim", "the recorded plan", cid, None),
        ("add_evidence", "the notice says so", cid, None),
        ("create_claim", "from the notice", cid, None),
    ]
    (evidence,) = [e for e in alice.chronicle.audit_log(limit=20) if e.action == "add_evidence"]
    assert evidence.memory_id == fid and evidence.event_type == "ClaimEvidenceAdded"
    positions = [e.position for e in alice.chronicle.audit_log(limit=20)]
    assert positions == sorted(positions, reverse=True)
    assert len(alice.chronicle.audit_log(limit=3)) == 3


def test_what_a_subject_may_not_see_is_not_in_its_audit(
    alice: MemoryAPI, bob: MemoryAPI, memory: Memory
) -> None:
    """DESIGN: a subject never learns a fact it may not read exists; nor a claim or a
    narrative over it (decisions 0083, 0087)."""
    fid, cid = _claim(alice)
    n = alice.chronicle.narrate("June.", reason="weekly", claim_ids=[cid], scope="s")
    assert all(e.claim_id is None and e.narrative_id is None for e in bob.chronicle.audit_log())
    assert bob.chronicle.list_narratives() == []
    with pytest.raises(NotFound):
        bob.chronicle.review_narrative(n.narrative_id, note="x")
    with pytest.raises(NotFound, match="no claim with id"):
        bob.chronicle.narrate("x", reason="r", claim_ids=[cid])
    memory.policy_add("p", ["bob", "path:/alice/*", "read"])
    seen = {e.claim_id for e in bob.chronicle.audit_log(limit=50)} | {
        e.narrative_id for e in bob.chronicle.audit_log(limit=50)
    }
    assert {cid, n.narrative_id} <= seen
    assert fid in {e.memory_id for e in bob.chronicle.audit_log(limit=50)}


def test_declared_conflicts_are_in_the_audit_for_who_may_read_both_memories(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    """memory-as-history's mark_conflict / resolve_conflict are decisions with reasons."""
    a = alice.remember("Sprint goal: the importer.", frame="team").fact.id
    b = alice.remember("Sprint goal: the exporter.", frame="ops", path="/alice/goals").fact.id
    c = alice.chronicle.mark_conflict(a, b, reason="two goals")
    alice.resolve_conflict(c.id, both=True, reason="both stand")
    got = [(e.action, e.conflict_id, e.reason) for e in alice.chronicle.audit_log(limit=3)]
    assert got[:2] == [
        ("resolve_conflict", c.id, "both stand"),
        ("mark_conflict", c.id, "two goals"),
    ]
    assert all(e.conflict_id is None for e in bob.chronicle.audit_log(limit=50))
