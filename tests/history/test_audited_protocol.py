"""What the history protocol records beside its decisions (decision 0142): refusals of the
corroboration gate, the loss of a narrative's usability, the upgrade a corroboration
makes, and the review clock ``due_for_review(days)`` sets. Each is an event of the log,
so every transport's ``audit_log`` shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.errors import Conflict, ProtocolViolation
from embornal.storage.sqlite.verify import compare_with_replay


def _actions(memory: Memory) -> list[str]:
    return [e.action for e in memory.chronicle.audit_log(limit=1000)]


def _sensitive(memory: Memory, source: str | None = "register:cedar") -> str:
    s = memory.remember(
        "Project cedar uses an amber archive.", source=source, security_sensitive=True
    )
    memory.promote(s.fact.id, reason="durable project evidence")
    return s.fact.id


def test_a_pin_refused_by_the_gate_is_audited_as_pin_denied(memory: Memory, db_path: Path) -> None:
    """Who tried to anchor an uncorroborated sensitive claim, when and why, stays on
    record; the anchor is not made."""
    fid = _sensitive(memory)
    with pytest.raises(ProtocolViolation):
        memory.pin(fid, reason="unverified claim")
    (denied,) = [e for e in memory.chronicle.audit_log(limit=50) if e.action == "pin_denied"]
    assert (denied.memory_id, denied.reason) == (fid, "unverified claim")
    assert not memory.show(fid).fact.pinned
    memory.corroborate(fid, "independent:inspection")
    memory.pin(fid, reason="independent evidence obtained")
    assert _actions(memory)[:3] == ["pin", "corroborate_upgrade", "corroborate"]
    assert compare_with_replay(str(db_path), FixedClock()) == []


def test_a_pin_of_working_material_records_no_refusal(memory: Memory) -> None:
    s = memory.remember("Unverified.", source="x", security_sensitive=True)
    with pytest.raises(ProtocolViolation):
        memory.pin(s.fact.id, reason="too early")
    assert "pin_denied" not in _actions(memory)


def test_a_canonize_refused_by_the_gate_is_audited_as_canonize_denied(memory: Memory) -> None:
    fid = _sensitive(memory, source=None)
    memory.corroborate(fid, "register:first")
    with pytest.raises(ProtocolViolation):
        memory.chronicle.canonize(fid, "release", reason="unverified")
    assert "canonize_denied" in _actions(memory)
    memory.corroborate(fid, "register:second")
    memory.chronicle.canonize(fid, "release", reason="two sources obtained")
    assert {"canonize", "canonize_denied", "corroborate_upgrade"} <= set(_actions(memory))


def test_a_sensitive_narrate_refused_by_the_gate_is_audited_as_narrate_denied(
    memory: Memory,
) -> None:
    s = memory.remember("Project cedar uses an amber archive.", source="register:cedar")
    with pytest.raises(ProtocolViolation):
        memory.chronicle.narrate(
            "Cedar: amber.",
            reason="single source",
            memory_ids=[s.fact.id],
            security_sensitive=True,
        )
    assert memory.chronicle.current_narrative().narrative is None
    assert "narrate_denied" in _actions(memory)


def test_forgetting_a_source_records_narrative_invalidated_once(
    memory: Memory, db_path: Path
) -> None:
    s = memory.remember("Project cedar uses an amber archive.", source="register:cedar")
    n = memory.chronicle.narrate("Cedar: amber.", reason="synthesis", memory_ids=[s.fact.id])
    memory.forget(s.fact.id, reason="evidence withdrawn")
    (gone,) = [
        e for e in memory.chronicle.audit_log(limit=50) if e.action == "narrative_invalidated"
    ]
    assert (gone.narrative_id, gone.reason) == (n.narrative_id, "evidence withdrawn")
    memory.restore(s.fact.id, reason="reinstated")
    memory.flag_sensitive(s.fact.id, reason="authority unverified")
    assert _actions(memory).count("narrative_invalidated") == 1  # already unusable
    memory.corroborate(s.fact.id, "independent:inspection")
    memory.chronicle.review_narrative(n.narrative_id, note="checked again")
    memory.forget(s.fact.id, reason="withdrawn again")
    assert _actions(memory).count("narrative_invalidated") == 2  # after its new approval
    assert compare_with_replay(str(db_path), FixedClock()) == []


def test_a_flag_that_lifts_a_narrative_records_narrative_invalidated(memory: Memory) -> None:
    s = memory.remember("Project cedar uses an amber archive.", source="register:cedar")
    memory.chronicle.narrate("Cedar: amber.", reason="synthesis", memory_ids=[s.fact.id])
    memory.flag_sensitive(s.fact.id, reason="unverified authority identified")
    assert "narrative_invalidated" in _actions(memory)
    assert memory.chronicle.current_narrative().narrative is None


def test_due_for_review_marks_overdue_interpretations_stale(
    memory: Memory, clock: FixedClock, db_path: Path
) -> None:
    """due_for_review(days=0): an interpretation not reviewed since is stale, and the
    narrative resting on it unusable until the interpretation and the narrative are both
    reviewed again."""
    s = memory.remember("Cedar probably moves to amber.", source="x", tier="interpretation")
    n = memory.chronicle.narrate("Cedar: amber.", reason="synthesis", memory_ids=[s.fact.id])
    clock.advance(seconds=1)
    due = memory.due_for_review(days=0)
    assert [d.fact.id for d in due] == [s.fact.id]
    view = memory.chronicle.current_narrative()
    assert view.narrative is None and view.narrative_review is not None
    assert view.narrative_review.narrative_id == n.narrative_id
    assert "narrative_invalidated" in _actions(memory)
    with pytest.raises(Conflict):
        memory.chronicle.review_narrative(n.narrative_id, note="not yet")
    memory.review(s.fact.id, note="inference rechecked")
    assert memory.chronicle.current_narrative().narrative is None  # not approved silently
    memory.chronicle.review_narrative(n.narrative_id, note="synthesis rechecked")
    assert memory.chronicle.current_narrative().narrative is not None
    assert memory.due_for_review() == []  # the default window: 30 days
    assert compare_with_replay(str(db_path), FixedClock()) == []


def test_reviewing_a_replaced_narrative_version_is_a_conflict(memory: Memory) -> None:
    first = memory.chronicle.narrate("One.", reason="start")
    memory.chronicle.narrate("Two.", reason="moved on")
    with pytest.raises(Conflict) as refused:
        memory.chronicle.review_narrative(first.narrative_id, note="checked")
    assert not isinstance(refused.value, ProtocolViolation)
