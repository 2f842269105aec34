"""Undo through the Python API (decisions 0043, 0044): any change followed by its undo
gives the projected fact back as it was; refusals write nothing; no existence leak;
an undo racing a write re-decides on the new state."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import AccessDenied, InvalidInput, NotFound, NotUndoable
from race_helpers import after_first_load

PROJECT = {"name": "embornal", "status": "idea"}


def _count(mem: Memory) -> int:
    return sum(1 for _ in mem._store.read_all())


def _snapshot(mem: Memory, fact_id: str) -> dict[str, Any]:
    """What the projection holds of a fact, as a reader sees it."""
    d = mem.show(fact_id)
    return {
        "state": d.fact.state,
        "attributes": dict(d.fact.attributes),
        "confidence": round(d.confidence or 0.0, 12),
        "last_confirmed_at": d.last_confirmed_at,
        "tags": sorted((str(t), s) for t, s in d.effective_tags),
        "live": fact_id in {f.id for f in mem.find("project", under="/projects")},
    }


def _last(mem: Memory) -> int:
    return max(e.position for e in mem._store.read_all())


OPS = ("forget", "restore", "update", "confirm", "contradict", "evidence", "tag", "untag")


def _tags(mem: Memory, fact_id: str) -> set[str]:
    return {str(t) for t, _ in mem.show(fact_id).effective_tags}


def _apply(mem: Memory, fact_id: str, op: str, n: int) -> bool:
    """Do ``op`` if the fact's state allows it; whether it did."""
    state = mem.show(fact_id).fact.state
    active = state == "active"
    if op == "forget" and active:
        mem.forget(fact_id, reason="op")
    elif op == "restore" and state == "forgotten":
        mem.restore(fact_id, reason="op")
    elif op == "update" and active:
        choice = [
            {"status": "active"},
            {"status": "done", "summary": f"s{n}"},
            {"summary": None},
            {"target_date": "2026-03-01"},
        ][n % 4]
        current = mem.show(fact_id).fact.attributes
        if all(current.get(k) == v for k, v in choice.items()):
            return False
        mem.update(fact_id, choice)
    elif op == "confirm" and active:
        mem.confirm(fact_id)
    elif op == "contradict" and active:
        mem.contradict(fact_id, reason="op")
    elif op == "evidence" and active:
        mem.add_evidence(fact_id, f"quote:seen {n}")
    elif op == "tag" and f"team=t{n % 3}" not in _tags(mem, fact_id):
        mem.tag_path("/projects", [f"team=t{n % 3}"])
    elif op == "untag" and any(t.startswith("team=") for t in _tags(mem, fact_id)):
        mem.untag_path("/projects", ["team"])
    else:
        return False
    return True


@settings(max_examples=50)
@given(
    prefix=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 11)), max_size=6),
    last=st.tuples(st.sampled_from(OPS), st.integers(0, 11)),
)
def test_any_change_then_its_undo_gives_the_projected_fact_back(
    prefix: list[tuple[str, int]], last: tuple[str, int]
) -> None:
    clock = FixedClock(datetime(2026, 1, 1, 12, 0, tzinfo=UTC))
    with Memory.open(":memory:", clock=clock) as mem:
        fact = mem.store("/projects/embornal", "The memory.", kind="project", attributes=PROJECT)
        for op, n in prefix:
            clock.advance(seconds=60)
            _apply(mem, fact.id, op, n)
        before = _snapshot(mem, fact.id)
        clock.advance(seconds=60)
        mark = _last(mem)
        if not _apply(mem, fact.id, *last) or _last(mem) == mark:
            return
        clock.advance(seconds=60)
        undone = mem.undo(_last(mem), reason="by mistake")
        assert undone and all(e.payload["undoes"] == mark + 1 for e in undone)
        assert _snapshot(mem, fact.id) == before
        assert mem.verify() == []


def test_the_undo_of_a_store_and_of_a_supersede(memory: Memory) -> None:
    old = memory.store("/notes", "The build uses uv.")
    new = memory.supersede(old.id, "The build uses Poetry.")
    assert memory.show(old.id).fact.state == "superseded"
    (supersede,) = [e for e in memory.history(new.id) if e.stream_id == new.id]
    (forget,) = memory.undo(supersede.position, reason="wrong correction")
    assert forget.stream_id == new.id and forget.type == "FactForgotten"
    assert memory.show(old.id).fact.state == "active"  # the old fact is back in recall
    assert [h.fact.id for h in memory.recall("build", under="/notes")] == [old.id]
    (redo,) = memory.undo(forget.position, reason="it was right")
    assert memory.show(old.id).fact.state == "superseded" and redo.type == "FactRestored"
    assert memory.verify() == []
    memory.rebuild()
    assert memory.show(old.id).fact.state == "superseded"


def test_a_purge_cannot_be_undone_and_nothing_is_written(memory: Memory) -> None:
    fact = memory.store("/notes", "Secret.")
    memory.purge(fact.id, reason="gone")
    purge = _last(memory)
    n = _count(memory)
    with pytest.raises(NotUndoable, match="a purge cannot be undone") as e:
        memory.undo(purge, reason="bring it back")
    assert e.value.exit_code == 4 and e.value.code == "not_undoable"
    with pytest.raises(NotUndoable, match="was purged"):
        memory.undo(purge - 1, reason="the store then")
    assert _count(memory) == n


def _people(memory: Memory) -> tuple[Memory, Memory]:
    """Alice and Bob, each with a token (which gives a subject its own subtree)."""
    for who in ("alice", "bob"):
        memory.token_add(who)
    return memory.as_subject("alice"), memory.as_subject("bob")


def _without_number(message: str) -> str:
    return re.sub(r"\d+", "N", message)


def test_an_event_the_subject_may_not_read_answers_as_a_missing_one(memory: Memory) -> None:
    alice, bob = _people(memory)
    private = alice.store("/alice/diary", "Mine.")
    alice.tag_path("/alice", ["mood=good"])
    (stored,) = alice.history(private.id)
    tagged = _last(memory)
    recalled = (bob.recall(None), _last(memory))[1]  # a recall stream's event
    missing = tagged + 1000
    errors = []
    for position in (stored.position, tagged, recalled, missing):
        with pytest.raises(NotFound) as e:
            bob.undo(position, reason="x")
        errors.append((_without_number(e.value.message), e.value.hint))
    assert len(set(errors)) == 1
    n = _count(memory)
    with pytest.raises(InvalidInput):
        bob.undo("#x", reason="x")
    assert _count(memory) == n


def test_an_undo_takes_the_rights_of_its_compensation(memory: Memory) -> None:
    alice, bob = _people(memory)
    shared = alice.store("/team/plan", "The plan.", tags=["visibility=public"])
    memory.policy_add("p", ["bob", "path:/team/*", "write"])
    alice.confirm(shared.id)
    confirm = _last(memory)
    (reset,) = bob.undo(confirm, reason="not confirmed")  # a reset takes write: bob has it
    assert reset.actor == "bob"
    with pytest.raises(AccessDenied):  # forgetting takes delete, which bob lacks
        bob.undo(alice.history(shared.id)[0].position, reason="x")


def test_an_assistant_undo_is_recorded_as_one(memory: Memory) -> None:
    fact = memory.store("/notes", "A.")
    bot = memory.as_subject("default", "assistant")
    (forget,) = bot.undo(memory.history(fact.id)[0].position, reason="stored twice")
    assert forget.actor_kind == "assistant" and forget.reason == "stored twice"


# -- an undo racing a write ----------------------------------------------------------------


def test_an_undo_racing_a_write_that_overrides_it_fails_cleanly(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    fact = memory.store("/notes", "A.")
    memory.forget(fact.id, reason="x")
    forget = _last(memory)
    loads = after_first_load(memory, monkeypatch, lambda: memory.restore(fact.id, reason="y"))
    with pytest.raises(NotUndoable, match=f"event {forget + 1} \\(FactRestored\\)"):
        memory.undo(forget, reason="z")
    assert len(loads) == 3  # ours, the restore's, ours again: the append failed, a retry
    assert [e.type for e in memory.history(fact.id)][-1] == "FactRestored"
    assert memory.verify() == []


def test_an_undo_racing_a_write_it_does_not_meet_lands_after_it(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    fact = memory.store("/p/x", "X.", kind="project", attributes=PROJECT)
    memory.update(fact.id, {"status": "active"})
    update = _last(memory)
    after_first_load(memory, monkeypatch, lambda: memory.update(fact.id, {"summary": "s"}))
    (back,) = memory.undo(update, reason="not yet")
    assert back.version == 4 and back.payload["changes"] == {"status": "idea"}
    assert memory.show(fact.id).fact.attributes == {**PROJECT, "summary": "s"}
