"""Canon, frames and declared conflicts on both sides (a local memory and the remote
client over REST), and a subject never learns of a memory it may not read through them
(decisions 0078-0080)."""

from __future__ import annotations

import pytest

from embornal.errors import NotFound, ProtocolViolation
from embornal.interfaces.api import MemoryAPI


def test_canon_and_frames_on_both_sides(alice: MemoryAPI) -> None:
    s = alice.remember("We ship 2.0 on Friday.", source="pm", frame="team-a")
    assert s.frame == "team-a"
    with pytest.raises(ProtocolViolation) as refused:
        alice.chronicle.canonize(s.fact.id, "release", reason="the plan")
    assert "promote(memory_id, reason)" in (refused.value.hint or "")
    alice.promote(s.fact.id, reason="the plan")
    entry = alice.chronicle.canonize(s.fact.id, "release", reason="the plan")
    assert (entry.scope, entry.reason, entry.actor, entry.eligible_for_recall) == (
        "release",
        "the plan",
        "alice",
        True,
    )
    assert alice.chronicle.list_canon(scope="release") == [entry]
    assert [(x.scope, x.entries) for x in alice.chronicle.active_scopes()] == [("release", 1)]
    with pytest.raises(ProtocolViolation) as kept:
        alice.forget(s.fact.id, reason="done")
    assert "decanonize(memory_id, reason)" in (kept.value.hint or "")
    framed = alice.chronicle.set_frame(s.fact.id, "team-b", reason="moved")
    assert framed.frame == "team-b" and framed.canon == ("release",)
    assert [(f.frame, f.memories) for f in alice.chronicle.list_frames()] == [("team-b", 1)]
    done = alice.chronicle.decanonize(s.fact.id, reason="not this task")
    assert (done.scopes, done.memory_ids, done.removed) == (("release",), (s.fact.id,), 1)
    alice.chronicle.canonize(s.fact.id, "release", reason="back")
    ended = alice.chronicle.end_scope("release", reason="shipped")
    assert ended.removed == 1 and alice.chronicle.list_canon() == []
    assert alice.forget(s.fact.id, reason="done").state == "forgotten"


def test_declared_conflicts_on_both_sides(alice: MemoryAPI) -> None:
    a = alice.remember("The deadline is June.", frame="team-a").fact.id
    b = alice.remember("The deadline is July.", frame="team-b").fact.id
    c = alice.chronicle.mark_conflict(a, b, reason="two deadlines")
    assert (c.conflict_class, c.status, c.opened_reason) == ("declared", "open", "two deadlines")
    assert alice.chronicle.mark_conflict(b, a, reason="again").id == c.id
    assert [x.id for x in alice.chronicle.list_conflicts(resolved=False)] == [c.id]
    done = alice.resolve_conflict(c.id, keep=b, reason="the plan says July")
    assert (done.outcome, done.kept_id, done.archived) == ("keep", b, ())
    assert [m.state for m in done.members] == ["active", "active"]
    assert [x.id for x in alice.chronicle.list_conflicts(resolved=True)] == [c.id]
    alice.forget(a, reason="wrong")
    with pytest.raises(ProtocolViolation) as refused:
        alice.chronicle.mark_conflict(a, b, reason="x")
    assert "restore(memory_id, reason)" in (refused.value.hint or "")


def test_a_hidden_memory_looks_missing_to_canon_frames_and_conflicts(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.store("/private/alice", "Alice's private focus.", source="alice").id
    other = alice.store("/private/alice", "Alice's other note.").id
    alice.chronicle.canonize(mine, "secret-project", reason="focus")
    alice.chronicle.set_frame(mine, "alice-only", reason="mine")
    alice.chronicle.mark_conflict(mine, other, reason="they disagree")
    ours = bob.store("/shared/bob", "Bob's note.").id
    for call in (
        lambda: bob.chronicle.canonize(mine, "x", reason="y"),
        lambda: bob.chronicle.decanonize(mine, reason="y"),
        lambda: bob.chronicle.set_frame(mine, "x", reason="y"),
        lambda: bob.chronicle.mark_conflict(ours, mine, reason="y"),
        lambda: bob.chronicle.end_scope("secret-project", reason="y"),
    ):
        with pytest.raises(NotFound):
            call()
    # the same answer as a scope never used
    with pytest.raises(NotFound) as never:
        bob.chronicle.end_scope("never-used", reason="y")
    assert "never-used" in str(never.value)
    assert bob.chronicle.list_canon() == [] and bob.chronicle.active_scopes() == []
    assert bob.chronicle.list_canon(scope="secret-project") == []
    assert bob.chronicle.list_frames() == []
    assert bob.chronicle.list_conflicts() == []
    assert [e.fact.id for e in alice.chronicle.list_canon()] == [mine]
