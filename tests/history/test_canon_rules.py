"""Canon and scopes (docs/model.md, Canon and scopes; decision 0078), each test quoting the
rule it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.domain.history.canon import SOFT_CANON_LIMIT
from embornal.errors import InvalidInput, NotFound, ProtocolViolation
from embornal.service.history import protocol
from embornal.service.history.results import MemoryStatus
from embornal.storage.sqlite.verify import compare_with_replay


def _consolidated(memory: Memory, text: str, source: str | None = "alice") -> str:
    fid = memory.remember(text, source=source).fact.id
    memory.promote(fid, reason="it matters for the task")
    return fid


def _status(memory: Memory, fact_id: str) -> MemoryStatus:
    return protocol.status(memory._ctx, fact_id)


def test_canonize_only_a_consolidated_memory_with_a_hint_to_promote(memory: Memory) -> None:
    """'canonize(memory_id, scope, reason) — add a consolidated memory to the task-scoped
    active canon (reason required)'."""
    s = memory.remember("The release branch is release/2.0.")
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.canonize(s.fact.id, "release", reason="the task")
    assert "Call promote(memory_id, reason) first" in (refused.value.hint or "")
    assert refused.value.to_dict()["error"] == "protocol_violation"
    memory.promote(s.fact.id, reason="confirmed")
    with pytest.raises(InvalidInput, match="reason"):
        memory.chronicle.canonize(s.fact.id, "release", reason=" ")
    with pytest.raises(InvalidInput, match="scope"):
        memory.chronicle.canonize(s.fact.id, "  ", reason="the task")
    entry = memory.chronicle.canonize(s.fact.id, " release ", reason="the task")
    assert (entry.scope, entry.reason, entry.eligible_for_recall) == ("release", "the task", True)
    assert entry.fact.id == s.fact.id and entry.since is not None
    with pytest.raises(ProtocolViolation, match="already in the active canon"):
        memory.chronicle.canonize(s.fact.id, "release", reason="twice")
    # a stored fact is consolidated (decision 0064): it may enter directly
    stored = memory.store("/notes", "Code freeze on Thursday.").id
    assert memory.chronicle.canonize(stored, "release", reason="freeze").scope == "release"


def test_canonize_a_forgotten_memory_says_restore_first(memory: Memory) -> None:
    fid = _consolidated(memory, "An old plan.")
    memory.forget(fid, reason="superseded by the new plan")
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.canonize(fid, "planning", reason="x")
    assert "restore(memory_id, reason)" in (refused.value.hint or "")
    with pytest.raises(NotFound):
        memory.chronicle.canonize("01ZZZZZZZZZZZZZZZZZZZZZZZZ", "planning", reason="x")


def test_the_memory_itself_is_untouched_by_canon_changes(memory: Memory) -> None:
    """'decanonize(memory_id, scope?, reason) / end_scope(scope, reason) — remove
    memory(ies) from the canon; the memory itself is untouched'."""
    fid = _consolidated(memory, "We ship on Fridays.")
    before = _status(memory, fid)
    memory.chronicle.canonize(fid, "release", reason="focus")
    memory.chronicle.canonize(fid, "ops", reason="focus too")
    during = _status(memory, fid)
    assert during.canon == ("release", "ops")
    memory.chronicle.decanonize(fid, "ops", reason="not ops")
    memory.chronicle.end_scope("release", reason="shipped")
    after = _status(memory, fid)
    for s in (during, after):
        assert (s.fact.content, s.tier, s.stage, s.sensitive, s.fact.pinned) == (
            before.fact.content,
            before.tier,
            before.stage,
            before.sensitive,
            before.fact.pinned,
        )
    assert after.canon == () and after.fact.state == "active"


def test_decanonize_without_a_scope_leaves_every_scope(memory: Memory) -> None:
    fid = _consolidated(memory, "The API is frozen.")
    for scope in ("release", "docs"):
        memory.chronicle.canonize(fid, scope, reason="focus")
    done = memory.chronicle.decanonize(fid, reason="task over")
    assert (done.scopes, done.memory_ids, done.removed) == (("release", "docs"), (fid,), 2)
    assert memory.chronicle.list_canon() == []
    with pytest.raises(ProtocolViolation, match="not in the active canon"):
        memory.chronicle.decanonize(fid, reason="again")
    with pytest.raises(InvalidInput, match="reason"):
        memory.chronicle.decanonize(fid, reason="")


def test_end_scope_is_one_decision_over_every_membership(memory: Memory) -> None:
    a = _consolidated(memory, "Milestone one is done.")
    b = _consolidated(memory, "Milestone two is next.")
    c = _consolidated(memory, "Unrelated.")
    for fid in (a, b):
        memory.chronicle.canonize(fid, "phase-1", reason="focus")
    memory.chronicle.canonize(c, "phase-2", reason="next")
    scopes = memory.chronicle.active_scopes()
    assert [(s.scope, s.entries) for s in scopes] == [("phase-1", 2), ("phase-2", 1)]
    ended = memory.chronicle.end_scope("phase-1", reason="phase over")
    assert ended.removed == 2 and set(ended.memory_ids) == {a, b}
    assert [s.scope for s in memory.chronicle.active_scopes()] == ["phase-2"]
    for fid in (a, b):
        last = memory.history(fid)[-1]
        assert (last.type, last.reason) == ("MemoryDecanonized", "phase over")
        assert last.body.cause == "end_scope"  # type: ignore[attr-defined]
    assert memory.history(a)[-1].position != memory.history(b)[-1].position
    assert memory.history(a)[-1].recorded_at == memory.history(b)[-1].recorded_at
    with pytest.raises(NotFound, match="no active canon in scope"):
        memory.chronicle.end_scope("phase-1", reason="again")


def test_list_canon_filters_by_scope_oldest_first(memory: Memory) -> None:
    a = _consolidated(memory, "First.")
    b = _consolidated(memory, "Second.")
    memory.chronicle.canonize(b, "x", reason="b first")
    memory.chronicle.canonize(a, "x", reason="then a")
    memory.chronicle.canonize(a, "y", reason="a in y")
    assert [(e.fact.id, e.scope) for e in memory.chronicle.list_canon()] == [
        (b, "x"),
        (a, "x"),
        (a, "y"),
    ]
    assert [e.reason for e in memory.chronicle.list_canon(scope="y")] == ["a in y"]
    assert memory.chronicle.list_canon(scope="nothing") == []


def test_forget_refuses_a_canonized_memory_with_a_hint_to_decanonize(memory: Memory) -> None:
    """'forget() lacked a canon guard — a canonized memory could be forgotten directly,
    leaving an orphaned "active" canon entry pointing at a tombstone. Fixed: mirrors the
    anchor guard — decanonize() (or end_scope()) first.'"""
    fid = _consolidated(memory, "The customer is ACME.")
    memory.chronicle.canonize(fid, "acme-deal", reason="the deal")
    with pytest.raises(ProtocolViolation) as refused:
        memory.forget(fid, reason="done")
    hint = refused.value.hint or ""
    assert "decanonize(memory_id, reason)" in hint and "end_scope(scope, reason)" in hint
    assert memory.show(fid).fact.state == "active"
    memory.chronicle.end_scope("acme-deal", reason="deal closed")
    assert memory.forget(fid, reason="done").state == "forgotten"
    assert memory.chronicle.list_canon() == []


def test_a_sensitive_memory_enters_the_canon_only_with_the_gate(memory: Memory) -> None:
    """'Sensitive pin, canon and narrative routes require recorded corroborating source
    labels' — the same gate as pinning."""
    fid = memory.remember("You may deploy without review.", source="chat").fact.id
    memory.flag_sensitive(fid, reason="waives a check")
    memory.promote(fid, reason="r")
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.canonize(fid, "deploy", reason="policy")
    assert "corroborate(memory_id, source)" in (refused.value.hint or "")
    memory.corroborate(fid, "chat")  # the origin itself adds nothing
    with pytest.raises(ProtocolViolation):
        memory.chronicle.canonize(fid, "deploy", reason="policy")
    memory.corroborate(fid, "the team's deploy policy")
    assert memory.chronicle.canonize(fid, "deploy", reason="policy").eligible_for_recall


def test_flagging_lifts_unsupported_canon_with_the_anchor_atomically(memory: Memory) -> None:
    """'Retroactive sensitivity removes unsupported canon memberships and invalidates
    narratives atomically'; 'Sufficiently supported entries stay active. Reestablishing
    evidence does not automatically re-pin or re-canonize.'"""
    fid = memory.store("/rules", "Admins may skip review.", source="a-comment").id
    memory.pin(fid)
    memory.chronicle.canonize(fid, "release", reason="focus")
    memory.chronicle.canonize(fid, "ops", reason="focus")
    s = memory.flag_sensitive(fid, reason="it waives a check")
    assert s.sensitive and not s.fact.pinned and s.canon == ()
    tail = memory.history(fid)[-4:]
    assert [e.type for e in tail] == [
        "MemoryFlaggedSensitive",
        "FactImportanceAdjusted",
        "MemoryDecanonized",
        "MemoryDecanonized",
    ]
    assert {e.recorded_at for e in tail} == {tail[0].recorded_at}  # one append
    assert [e.reason for e in tail[2:]] == ["decanonize by sensitivity: it waives a check"] * 2
    assert [e.body.cause for e in tail[2:]] == ["sensitivity"] * 2  # type: ignore[attr-defined]
    memory.corroborate(fid, "the team's policy doc")
    assert memory.chronicle.list_canon() == []  # not re-canonized by evidence
    assert memory.chronicle.canonize(fid, "release", reason="supported now").eligible_for_recall
    # a supported membership stays when its memory is flagged
    ok = memory.store("/rules", "Releases need two approvals.", source="handbook").id
    memory.corroborate(ok, "policy wiki")
    memory.chronicle.canonize(ok, "release", reason="focus")
    assert memory.flag_sensitive(ok, reason="permissions").canon == ("release",)


def test_a_legacy_unsupported_entry_stays_inspectable_not_eligible(
    memory: Memory, db_path: Path
) -> None:
    """'Legacy unsupported canon stays inspectable with eligible_for_recall=false.'"""
    fid = memory.store("/rules", "Tokens may be shared.", source="forum").id
    memory.chronicle.canonize(fid, "ops", reason="before the rule")
    # an entry written before the lift existed: the sensitivity flag alone, as a log
    # of an older release would hold it
    from embornal.domain.events.protocol import MemoryFlaggedSensitive

    state = memory._store.fact_state(fid)
    assert state is not None
    ctx = memory._ctx
    ctx.append(
        "an older release", [ctx.event(fid, MemoryFlaggedSensitive(fid), "old", state.version)]
    )
    (entry,) = memory.chronicle.list_canon()
    assert entry.eligible_for_recall is False
    assert any("corroborate(memory_id, source)" in w for w in entry.warnings)


def test_past_the_soft_canon_limit_canonize_warns_but_enters(memory: Memory) -> None:
    ids = [memory.store("/c", f"Item {i}.").id for i in range(SOFT_CANON_LIMIT + 1)]
    for fid in ids[:-1]:
        assert memory.chronicle.canonize(fid, "big", reason="r").warnings == ()
    last = memory.chronicle.canonize(ids[-1], "big", reason="r")
    assert last.scope == "big" and "soft limit" in last.warnings[0]


def test_canon_projections_rebuild_and_verify(memory: Memory, db_path: Path) -> None:
    a = _consolidated(memory, "Rebuilt.")
    b = memory.store("/x", "Also.", source="s").id
    memory.chronicle.canonize(a, "r", reason="one")
    memory.chronicle.canonize(b, "r", reason="two")
    memory.chronicle.decanonize(b, reason="out")
    memory.chronicle.set_frame(a, "team-a", reason="filed")
    assert compare_with_replay(str(db_path), FixedClock()) == []
    memory.rebuild()
    assert [e.fact.id for e in memory.chronicle.list_canon()] == [a]
    assert [(f.frame, f.memories) for f in memory.chronicle.list_frames()] == [("team-a", 1)]


def test_a_purge_drops_the_memberships(memory: Memory, db_path: Path) -> None:
    fid = memory.store("/x", "Private.").id
    memory.chronicle.canonize(fid, "r", reason="one")
    memory.chronicle.set_frame(fid, "private", reason="filed")
    memory.purge(fid, reason="privacy")
    assert memory.chronicle.list_canon() == [] and memory.chronicle.active_scopes() == []
    assert memory.chronicle.list_frames() == []
    assert compare_with_replay(str(db_path), FixedClock()) == []


def test_canon_events_are_not_undoable(memory: Memory) -> None:
    from embornal.errors import NotUndoable

    fid = memory.store("/x", "Keep.").id
    memory.chronicle.canonize(fid, "r", reason="one")
    with pytest.raises(NotUndoable, match="decanonize"):
        memory.undo(memory.history(fid)[-1].position, reason="oops")


def test_an_undo_that_would_forget_meets_the_canon_guard(memory: Memory) -> None:
    """The guard holds for every way a memory leaves recall, an undo too."""
    fid = memory.store("/x", "Focus.").id
    memory.chronicle.canonize(fid, "r", reason="one")
    with pytest.raises(ProtocolViolation, match="active canon"):
        memory.undo(memory.history(fid)[0].position, reason="never stored")
    assert memory.show(fid).fact.state == "active"
