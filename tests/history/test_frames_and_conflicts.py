"""Frames and declared conflicts (docs/model.md, Frames, Conflicts; decisions 0078, 0080),
each test quoting the rule it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.errors import Conflict, InvalidInput, NotFound, ProtocolViolation
from embornal.service.history import protocol
from embornal.storage.sqlite.verify import compare_with_replay


def test_remember_takes_a_frame_and_set_frame_needs_a_reason(memory: Memory) -> None:
    """'remember(..., frame?) / set_frame(memory_id, frame, reason) — assign a memory's
    social frame (reason required for re-framing)'."""
    s = memory.remember("The deadline is June.", source="colleague-a", frame="team-a")
    assert s.frame == "team-a"
    assert [e.type for e in memory.history(s.fact.id)] == [
        "FactStored",
        "MemoryCaptured",
        "MemoryFramed",
    ]
    with pytest.raises(InvalidInput, match="reason"):
        memory.chronicle.set_frame(s.fact.id, "team-b", reason="")
    with pytest.raises(InvalidInput, match="frame"):
        memory.chronicle.set_frame(s.fact.id, " ", reason="x")
    again = memory.chronicle.set_frame(s.fact.id, "team-b", reason="she moved teams")
    assert again.frame == "team-b" and again.fact.content == s.fact.content
    last = memory.history(s.fact.id)[-1]
    assert (last.type, last.reason) == ("MemoryFramed", "she moved teams")
    assert last.body.previous == "team-a"  # type: ignore[attr-defined]
    n = len(memory.history(s.fact.id))
    memory.chronicle.set_frame(s.fact.id, "team-b", reason="same")  # no change, nothing written
    assert len(memory.history(s.fact.id)) == n
    assert memory.remember("No frame.").frame is None


def test_list_frames_counts_the_live_memories_of_each_frame(memory: Memory) -> None:
    """'list_frames() — distinct frames currently in use'."""
    a = memory.remember("One.", frame="team-a").fact.id
    memory.remember("Two.", frame="team-a")
    memory.remember("Three.", frame="family")
    stored = memory.store("/x", "Stored.").id
    memory.chronicle.set_frame(stored, "family", reason="filed")
    assert [(f.frame, f.memories) for f in memory.chronicle.list_frames()] == [
        ("family", 2),
        ("team-a", 2),
    ]
    memory.forget(a, reason="wrong")
    assert ("team-a", 1) in [(f.frame, f.memories) for f in memory.chronicle.list_frames()]
    with pytest.raises(ProtocolViolation, match="forgotten") as refused:
        memory.chronicle.set_frame(a, "team-b", reason="x")
    assert "restore(memory_id, reason)" in (refused.value.hint or "")


def test_frames_are_filters_not_access_boundaries(memory: Memory) -> None:
    """'Frames are filters, not complete social models or access-control boundaries.'"""
    fid = memory.remember("Framed.", frame="private-looking").fact.id
    assert memory.recall("Framed", reinforce=False)[0].fact.id == fid
    assert protocol.status(memory._ctx, fid).frame == "private-looking"


def test_mark_conflict_opens_a_declared_conflict_in_the_shared_queue(memory: Memory) -> None:
    """'mark_conflict(a, b, reason) ... declare and settle conflicting framed versions
    without deleting either'."""
    a = memory.remember("The deadline is June.", frame="team-a").fact.id
    b = memory.remember("The deadline is July.", frame="team-b").fact.id
    c = memory.chronicle.mark_conflict(a, b, reason="two deadlines")
    assert (c.conflict_class, c.status, c.detected_by) == ("declared", "open", "mark")
    assert c.opened_reason == "two deadlines"
    assert [m.id for m in c.members] == [a, b]
    # the one queue: the graph's list shows it too
    assert c.id in [x.id for x in memory.conflicts()]
    assert c.id in [x.id for x in memory.conflicts(conflict_class="declared")]
    # 'marking the same pair twice is a no-op returning the existing record'
    assert memory.chronicle.mark_conflict(b, a, reason="again").id == c.id
    assert len(memory.chronicle.list_conflicts(resolved=False)) == 1


def test_mark_conflict_accepts_live_memories_only(memory: Memory) -> None:
    """'mark_conflict() accepted forgotten memories — conflicts describe live framed
    versions, not tombstoned ones. Fixed'."""
    a = memory.remember("A.").fact.id
    b = memory.remember("B.").fact.id
    memory.forget(b, reason="wrong")
    before = len(list(memory._store.read_all()))
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.mark_conflict(a, b, reason="x")
    assert "restore(memory_id, reason)" in (refused.value.hint or "")
    with pytest.raises(InvalidInput, match="itself"):
        memory.chronicle.mark_conflict(a, a, reason="x")
    with pytest.raises(InvalidInput, match="reason"):
        memory.chronicle.mark_conflict(a, a, reason=" ")
    with pytest.raises(NotFound):
        memory.chronicle.mark_conflict(a, "01ZZZZZZZZZZZZZZZZZZZZZZZZ", reason="x")
    assert len(list(memory._store.read_all())) == before


def test_resolve_a_declared_conflict_deletes_neither(memory: Memory) -> None:
    """'resolve_conflict(conflict_id, reason, adopted_memory_id?)': the adopted version
    is named, 'the losing (or neither) version is NOT deleted — both memories remain'."""
    a = memory.remember("The deadline is June.", frame="team-a").fact.id
    b = memory.remember("The deadline is July.", frame="team-b").fact.id
    c = memory.chronicle.mark_conflict(a, b, reason="two deadlines")
    done = memory.resolve_conflict(c.id, keep=b, reason="the plan says July")
    assert (done.outcome, done.kept_id, done.archived) == ("keep", b, ())
    assert [m.state for m in done.members] == ["active", "active"]
    with pytest.raises(Conflict, match="already resolved"):
        memory.resolve_conflict(c.id, reason="again")
    # settled: the pair may be declared again, a new conflict
    again = memory.chronicle.mark_conflict(a, b, reason="June came back")
    assert again.id != c.id and again.status == "open"
    deferred = memory.resolve_conflict(again.id, reason="deferred")  # no adopted id: both
    assert deferred.outcome == "both"
    assert {x.id for x in memory.chronicle.list_conflicts(resolved=True)} == {c.id, again.id}
    assert memory.chronicle.list_conflicts(resolved=False) == []
    assert len(memory.chronicle.list_conflicts()) == 2


def test_list_conflicts_shows_detected_and_declared_together(memory: Memory) -> None:
    p1 = memory.store(
        "/people/1", "Ada Lovelace", kind="person", attributes={"full_name": "Ada Lovelace"}
    ).id
    p2 = memory.store(
        "/people/2", "Ada Lovelace", kind="person", attributes={"full_name": "Ada Lovelace"}
    ).id
    x = memory.remember("X.").fact.id
    y = memory.remember("Y.").fact.id
    memory.chronicle.mark_conflict(x, y, reason="disagree")
    classes = sorted(c.conflict_class for c in memory.chronicle.list_conflicts(resolved=False))
    assert classes == ["declared", "duplicate"]
    (dup,) = [c for c in memory.chronicle.list_conflicts() if c.conflict_class == "duplicate"]
    # keep on a detected duplicate still forgets the other (decision 0059)
    done = memory.resolve_conflict(dup.id, keep=p1, reason="one person")
    assert done.archived == (p2,)


def test_declared_conflicts_rebuild_and_verify(memory: Memory, db_path: Path) -> None:
    a = memory.remember("A.").fact.id
    b = memory.remember("B.").fact.id
    c = memory.chronicle.mark_conflict(a, b, reason="why not")
    memory.resolve_conflict(c.id, keep=a, reason="a holds")
    assert compare_with_replay(str(db_path), FixedClock()) == []
    memory.rebuild()
    (again,) = memory.chronicle.list_conflicts()
    assert (again.opened_reason, again.kept_id) == ("why not", a)
