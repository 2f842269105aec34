"""Narratives resting on claims (docs/model.md, Narratives; decision 0098): the claim
validated at narrate time, a later withdrawal, revision, replacement or evidence change
withholding the narrative until ``review_narrative`` or a replacement, as memory
dependencies do."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.errors import Conflict, InvalidInput, NotFound, ProtocolViolation


def _adopted(memory: Memory, text: str = "The release is planned for June.") -> str:
    fid = memory.remember(text, source="project notice").fact.id
    ledger = memory.chronicle
    c = ledger.create_claim(text, "plan", reason="from the notice", about=[fid])
    ledger.add_claim_evidence(c.id, memory_id=fid, note="the notice says so")
    ledger.adopt_claim(c.id, reason="the recorded plan")
    return c.id


def _issues(memory: Memory, scope: str = "project") -> list[tuple[str, str, bool]]:
    notice = memory.chronicle.current_narrative(scope=scope).narrative_review
    assert notice is not None
    return [(i.ref, i.issue, i.live) for i in notice.source_issues]


def test_a_narrative_on_an_adopted_claim_is_usable_and_names_it(memory: Memory) -> None:
    cid = _adopted(memory)
    n = memory.chronicle.narrate(
        "We release in June.", reason="weekly synthesis", claim_ids=[cid[:10]], scope="project"
    )
    assert n.claim_ids == (cid,) and n.usable and n.provenance_status == "linked"
    assert not n.warnings  # a claim is a dependency: the narrative is not unlinked
    view = memory.chronicle.current_narrative(scope="project")
    assert view.narrative is not None and view.narrative.claim_ids == (cid,)


def test_a_narrative_rests_on_adopted_judgments_only(memory: Memory) -> None:
    """Decision 0098: 'a narrative rests on adopted judgments': a proposed claim is
    refused, naming adopt_claim; a withdrawn one naming a narrate without it."""
    fid = memory.remember("A draft.", source="notes").fact.id
    proposed = memory.chronicle.create_claim("A draft plan.", "plan", about=[fid])
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.narrate("x", reason="r", claim_ids=[proposed.id])
    assert "adopt_claim(" in (refused.value.hint or "")
    cid = _adopted(memory)
    memory.chronicle.withdraw_claim(cid, reason="cancelled")
    with pytest.raises(ProtocolViolation) as withdrawn:
        memory.chronicle.narrate("x", reason="r", claim_ids=[cid])
    assert "withdrawn" in withdrawn.value.message and "without it" in (withdrawn.value.hint or "")
    with pytest.raises(NotFound, match="no claim with id"):
        memory.chronicle.narrate("x", reason="r", claim_ids=["C" + "Z" * 26])
    with pytest.raises(InvalidInput):
        memory.chronicle.narrate("x", reason="r", claim_ids=["not-a-claim"])
    assert memory.chronicle.list_narratives() == []  # nothing was written


def test_withdrawing_the_claim_withholds_the_narrative_until_a_replacement(
    memory: Memory,
) -> None:
    """memory-as-history: 'revise_claim() or withdraw_claim() changes the adopted account'; the
    narrative's text stays inspectable; review is refused while the issue is live."""
    cid = _adopted(memory)
    n = memory.chronicle.narrate(
        "We release in June.", reason="r", claim_ids=[cid], scope="project"
    )
    memory.chronicle.withdraw_claim(cid, reason="the plan was dropped")
    assert memory.chronicle.current_narrative(scope="project").narrative is None
    assert _issues(memory) == [(cid, "claim_withdrawn", True)]
    (past,) = memory.chronicle.narrative_history(scope="project")
    assert past.content == "We release in June." and not past.usable
    (listed,) = memory.chronicle.list_narratives()
    assert listed.withheld and listed.content is None
    with pytest.raises(Conflict):
        memory.chronicle.review_narrative(n.narrative_id, note="looks fine")
    other = _adopted(memory, "The release is planned for July.")
    new = memory.chronicle.narrate(
        "We release in July.", reason="r", claim_ids=[other], scope="project"
    )
    assert new.usable and memory.chronicle.current_narrative(scope="project").narrative == new


def test_a_revision_withholds_the_narrative_until_it_is_reviewed(memory: Memory) -> None:
    cid = _adopted(memory)
    n = memory.chronicle.narrate(
        "We release in June.", reason="r", claim_ids=[cid], scope="project"
    )
    memory.chronicle.revise_claim(cid, "new notice", statement="The release is in July.")
    assert _issues(memory) == [(cid, "claim_revised", False)]
    notice = memory.chronicle.current_narrative(scope="project").narrative_review
    assert notice is not None and "does not approve it" in notice.hint
    reviewed = memory.chronicle.review_narrative(n.narrative_id, note="compared with the claim")
    assert reviewed.usable


def test_an_evidence_change_withholds_it_even_after_the_claim_is_adopted_again(
    memory: Memory,
) -> None:
    """'restoration/corroboration/source review cannot silently approve it': re-adopting
    the claim clears the issue, but only review_narrative approves the narrative."""
    cid = _adopted(memory)
    n = memory.chronicle.narrate(
        "We release in June.", reason="r", claim_ids=[cid], scope="project"
    )
    memory.chronicle.add_claim_evidence(cid, source="the team channel", stance="challenges")
    assert _issues(memory) == [(cid, "claim_review_required", True)]
    notice = memory.chronicle.current_narrative(scope="project").narrative_review
    assert notice is not None and "adopt_claim(" in notice.hint
    with pytest.raises(Conflict):
        memory.chronicle.review_narrative(n.narrative_id, note="too early")
    memory.chronicle.adopt_claim(cid, reason="the channel was about another release")
    assert _issues(memory) == [(cid, "claim_review_required", False)]
    assert memory.chronicle.review_narrative(n.narrative_id, note="compared").usable


def test_a_replacement_claim_names_the_replacement_in_the_hint(memory: Memory) -> None:
    cid = _adopted(memory)
    memory.chronicle.narrate("We release in June.", reason="r", claim_ids=[cid], scope="project")
    fid = memory.remember("The release moved to July.", source="second notice").fact.id
    new = memory.chronicle.create_claim("The release is in July.", "plan", about=[fid])
    memory.chronicle.add_claim_evidence(new.id, memory_id=fid)
    memory.chronicle.revise_claim(cid, "moved", replacement_id=new.id)
    assert _issues(memory) == [(cid, "claim_superseded", True)]
    notice = memory.chronicle.current_narrative(scope="project").narrative_review
    assert notice is not None and "narrate(" in notice.hint


def test_forgetting_the_claims_material_withholds_the_narrative(
    memory: Memory, clock: FixedClock
) -> None:
    fid = memory.remember("The release is planned for June.", source="project notice").fact.id
    c = memory.chronicle.create_claim("June.", "plan", about=[fid])
    memory.chronicle.add_claim_evidence(c.id, memory_id=fid)
    memory.chronicle.adopt_claim(c.id, reason="r")
    memory.chronicle.narrate("June.", reason="r", claim_ids=[c.id], scope="project")
    clock.advance(seconds=1)
    memory.forget(fid, reason="wrong notice")
    assert _issues(memory) == [(c.id, "claim_review_required", True)]


def test_a_sensitive_synthesis_needs_claims_with_independent_origins(memory: Memory) -> None:
    """'Sensitive synthesis itself requires nonempty, supported links.'"""
    cid = _adopted(memory)  # one origin: the project notice
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.narrate("x", reason="r", claim_ids=[cid], security_sensitive=True)
    assert "add_evidence(" in (refused.value.hint or "")
    memory.chronicle.add_claim_evidence(cid, source="the release manager")
    memory.chronicle.adopt_claim(cid, reason="two origins now")
    n = memory.chronicle.narrate("x", reason="r", claim_ids=[cid], security_sensitive=True)
    assert n.usable and n.security_sensitive


def test_a_claim_whose_support_is_retracted_leaves_recall_but_stays_inspectable(
    memory: Memory,
) -> None:
    """Decision 0166, 4: retracting the evidence an adopted claim rests on asks for review;
    it is not recalled as current, yet inspect and status="all" show it, and adopting it
    again needs new support."""
    cid = _adopted(memory)
    ledger = memory.chronicle
    gone = ledger.retract_claim_evidence(f"{cid}-1", reason="citation requires review")
    assert gone.status == "adopted" and gone.review_required and not gone.eligible_for_recall
    assert ledger.recall_claims().claims == ()
    assert [c.id for c in ledger.recall_claims(status="all").claims] == [cid]
    assert ledger.claim(cid).evidence[0].active is False
    with pytest.raises(ProtocolViolation, match="no active supporting evidence"):
        ledger.adopt_claim(cid, reason="again")
    ledger.add_claim_evidence(cid, source="the release page")
    ledger.adopt_claim(cid, reason="reviewed on the page")
    assert [c.id for c in ledger.recall_claims().claims] == [cid]
