"""Time travel (decisions 0040-0042): ``as_of`` answers as the memory was at a past time,
as recorded then, from the history tables kept beside the projections."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.clock import format_time, parse_time
from embornal.errors import InvalidInput, InvalidTime, NotFound
from embornal.storage.common.history import PENDING_KEY, TABLES
from embornal.storage.sqlite.connect import connect

FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: str | Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _history(db: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    return {t: sorted(_rows(db, f"SELECT * FROM {t}"), key=repr) for t in TABLES}


def _contents(mem: Memory, path: str, at: datetime | str) -> list[str]:
    """The contents of the path's live facts at ``at`` (none: the path held nothing)."""
    try:
        return [v.fact.content for v in mem.cat(path, as_of=at)]
    except NotFound:
        return []


def _later(clock: FixedClock, days: float = 1.0) -> datetime:
    """Move the clock on; return a time half-way through the step just taken."""
    before = clock.now()
    clock.advance(days=days)
    return before + timedelta(days=days / 2)


# -- the life cycle of a fact ----------------------------------------------------------------


def test_store_forget_restore_supersede_each_as_it_was(memory: Memory, clock: FixedClock) -> None:
    before = clock.now() - timedelta(hours=1)
    old = memory.store("/proj", "The zork uses make.")
    stored = _later(clock)
    memory.forget(old.id, reason="not sure")
    forgotten = _later(clock)
    memory.restore(old.id, reason="it is so")
    restored = _later(clock)
    new = memory.supersede(old.id, "The zork uses uv.", reason="moved")
    superseded = clock.now() + timedelta(hours=1)
    clock.advance(days=1)

    assert _contents(memory, "/proj", stored) == ["The zork uses make."]
    assert _contents(memory, "/proj", forgotten) == []
    assert _contents(memory, "/proj", restored) == ["The zork uses make."]
    assert _contents(memory, "/proj", superseded) == ["The zork uses uv."]
    with pytest.raises(NotFound):  # the path held nothing yet
        memory.cat("/proj", as_of=before)

    assert memory.show(old.id, as_of=forgotten).fact.state == "forgotten"
    detail = memory.show(old.id, as_of=superseded)
    assert detail.fact.state == "superseded" and detail.fact.superseded_by == new.id
    assert detail.as_of == superseded and memory.show(old.id).as_of is None
    assert [e.type for e in memory.show(old.id, as_of=restored).events] == [
        "FactStored",
        "FactForgotten",
        "FactRestored",
    ]
    with pytest.raises(NotFound, match="was not stored yet"):
        memory.show(new.id, as_of=restored)

    def hits(at: datetime) -> list[str]:
        return [h.fact.id for h in memory.recall("zork", as_of=at, mode="keyword")]

    assert (hits(stored), hits(forgotten), hits(superseded)) == ([old.id], [], [new.id])
    assert [e.path for e in memory.ls("/", as_of=forgotten)] == []  # the guide: with all
    assert [e.path for e in memory.ls("/", as_of=forgotten, all=True)] == ["/memory"]
    assert [(e.path, e.fact_count) for e in memory.ls("/", as_of=stored)][-1] == ("/proj", 1)
    assert [c.path for c in memory.tree("/", as_of=forgotten).children] == []
    assert [c.path for c in memory.tree("/", as_of=forgotten, all=True).children] == ["/memory"]


def test_recall_at_a_past_time_writes_nothing_and_ranks_by_strength_then(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.store("/notes", "Tea at four.")
    fresh = _later(clock, 2)
    memory.recall("tea")  # lifts its strength now
    lifted = _later(clock, 0.5)
    events = _rows(memory.db_path, "SELECT count(*) FROM events")
    (then,) = memory.recall("tea", as_of=fresh)
    (after,) = memory.recall("tea", as_of=lifted, reinforce=True)  # still read-only
    assert _rows(memory.db_path, "SELECT count(*) FROM events") == events
    assert then.fact.recall_count == 0 and after.fact.recall_count == 1
    assert after.fact.last_recall_at is not None and then.fact.last_recall_at is None
    assert after.strength > then.strength  # recalled since, at a day's distance
    assert memory.show(fact.id).fact.recall_count == 1
    (strongest,) = [h for h in memory.recall(as_of=lifted) if h.fact.id == fact.id]
    assert strongest.strength == after.strength
    with pytest.raises(InvalidInput, match="never a recall"):
        memory.cat("/notes", as_of=fresh, recall=True)


def test_attributes_and_confidence_as_they_were(memory: Memory, clock: FixedClock) -> None:
    project = memory.store(
        "/projects/x", "Project X.", kind="project", attributes={"name": "X", "status": "active"}
    )
    active = _later(clock)
    memory.update(project.id, {"status": "done"}, reason="shipped")
    memory.confirm(project.id, evidence="quote:it shipped")
    done = _later(clock)

    assert [f.id for f in memory.find("project", ["status=active"], as_of=active)] == [project.id]
    assert memory.find("project", ["status=done"], as_of=active) == []
    assert [f.id for f in memory.find("project", ["status=done"], as_of=done)] == [project.id]
    assert memory.find("project", ["status=active"]) == []

    was = memory.show(project.id, as_of=active)
    now = memory.show(project.id, as_of=done)
    assert was.fact.attributes["status"] == "active" and now.fact.attributes["status"] == "done"
    assert was.confidence == 0.95 and now.confidence is not None and now.confidence > 0.95
    assert was.evidence == () and [e.value for e in now.evidence] == ["it shipped"]
    assert was.last_confirmed_at is None and now.last_confirmed_at is not None
    assert was.c_eff is not None and was.c_eff <= 0.95


def test_tags_on_a_path_as_they_were(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/team/notes", "We ship on Fridays.", tags=["topic=release"])
    untagged = _later(clock)
    memory.tag_path("/team", ["area=work"])
    tagged = _later(clock)
    memory.untag_path("/team", ["area"])
    gone = _later(clock)

    def tags(at: datetime) -> set[tuple[str, str | None]]:
        return {(str(t), src) for t, src in memory.show(fact.id, as_of=at).effective_tags}

    own = {("topic=release", None), ("owner=default", None)}
    assert tags(untagged) == own and tags(gone) == own
    assert tags(tagged) == own | {("area=work", "/team")}
    assert "topic=release" in [str(t) for t in memory.cat("/team/notes", as_of=gone)[0].fact.tags]


def test_the_time_is_when_it_was_recorded_not_when_it_was_true(
    memory: Memory, clock: FixedClock
) -> None:
    imported = memory.store("/history", "The company was founded.", at="2020-05-01T00:00:00Z")
    with pytest.raises(NotFound):  # dated 2020, but recorded only now
        memory.cat("/history", as_of="2021-01-01")
    (view,) = memory.cat("/history", as_of=clock.now())
    assert view.fact.id == imported.id and view.fact.created_at == parse_time("2020-05-01")


def test_access_is_decided_as_it_is_now(memory: Memory, clock: FixedClock) -> None:
    memory.policy_add("p", ["bob", "path:/team/*", "read", "allow"])
    memory.store("/team/plan", "Launch in May.")
    readable = _later(clock)
    bob = memory.as_subject("bob")
    assert [h.fact.content for h in bob.recall("launch", as_of=readable)] == ["Launch in May."]
    memory.policy_remove("p", ["bob", "path:/team/*", "read", "allow"])
    assert bob.recall("launch", as_of=readable) == []
    with pytest.raises(NotFound):
        bob.cat("/team/plan", as_of=readable)


def test_a_bad_time_writes_nothing(memory: Memory, clock: FixedClock) -> None:
    events = _rows(memory.db_path, "SELECT count(*) FROM events")
    for bad in ("soon", "2099-01-01", format_time(clock.now() + timedelta(seconds=1))):
        with pytest.raises(InvalidTime):
            memory.recall("x", as_of=bad)
        with pytest.raises(InvalidTime):
            memory.ls("/", as_of=bad)
    assert _rows(memory.db_path, "SELECT count(*) FROM events") == events


# -- purge, rebuild, migration ----------------------------------------------------------------


def test_a_purge_erases_the_text_of_the_history_too(memory: Memory, clock: FixedClock) -> None:
    secret = memory.store(
        "/p/x",
        "the code is zebra-42",
        tags=["colour=zebra-42"],
        kind="project",
        attributes={"name": "zebra-42", "status": "active"},
    )
    memory.update(secret.id, {"status": "paused"})
    was = _later(clock)
    memory.purge(secret.id, reason="a secret")
    db = memory.db_path
    assert not [r for t in TABLES for r in _rows(db, f"SELECT * FROM {t}") if "zebra" in repr(r)]
    assert _rows(db, "SELECT DISTINCT attributes FROM fact_versions WHERE fact_id = ?", secret.id)
    assert memory.find("project", as_of=was) == []
    with pytest.raises(NotFound, match="was purged"):
        memory.show(secret.id, as_of=was)
    assert memory.verify() == []


def test_rebuild_gives_the_same_history(memory: Memory, clock: FixedClock) -> None:
    a = memory.store("/a", "one", tags=["k=v"])
    memory.tag_path("/a", ["area=x"])
    memory.recall("one")
    clock.advance(seconds=1)
    memory.forget(a.id, reason="x")
    memory.restore(a.id, reason="y")  # the same instant: one row
    b = memory.supersede(a.id, "two")
    memory.confirm(b.id)
    memory.contradict(b.id, reason="doubt")
    clock.advance(days=1)
    memory.untag_path("/a", ["area"])
    memory.recall("two")
    c = memory.store("/a", "three", kind="project", attributes={"name": "c", "status": "idea"})
    memory.update(c.id, {"status": "active"})
    memory.forget(b.id, reason="z")  # gives a back
    memory.purge(c.id, reason="gone")
    before = _history(memory.db_path)
    assert all(before[t] for t in TABLES)
    assert memory.verify() == []
    memory.rebuild()
    assert _history(memory.db_path) == before
    assert _rows(
        memory.db_path,
        "SELECT state FROM fact_versions WHERE fact_id = ? ORDER BY valid_from DESC LIMIT 1",
        a.id,
    ) == [("active",)]


@pytest.fixture
def old_memory(tmp_path: Path) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, db.open("wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=FixedClock(parse_time("2026-06-01T00:00:00Z"))) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_gets_its_history_from_the_log(old_memory: Memory) -> None:
    mem = old_memory
    assert "0016_history" in mem.migrations_applied
    assert _rows(mem.db_path, "SELECT 1 FROM meta WHERE key = ?", PENDING_KEY) == []
    assert mem.verify() == []

    def when(kind: str, path_like: str) -> datetime:
        (row,) = _rows(
            mem.db_path,
            "SELECT e.recorded_at FROM events e JOIN facts f ON f.id = e.stream_id "
            "JOIN paths p ON p.id = f.path_id WHERE e.type = ? AND p.path = ? "
            "ORDER BY e.position LIMIT 1",
            kind,
            path_like,
        )
        return parse_time(row[0]) + timedelta(milliseconds=500)

    forgotten = when("FactForgotten", "/people/alice")
    restored = when("FactRestored", "/people/alice")
    assert _contents(mem, "/people/alice", forgotten) == []
    assert _contents(mem, "/people/alice", restored) == ["Alice prefers tea."]
    first = when("FactStored", "/projects/embornal")
    assert _contents(mem, "/projects/embornal", first) == ["The memory lives in SQLite."]
    assert _contents(mem, "/projects/embornal", restored) == [
        "The memory lives in one SQLite file."
    ]
    assert [h.fact.path for h in mem.recall("tea", as_of=restored)] == ["/people/alice"]
    # The purged secret is absent at every time, and its words are nowhere in the history.
    stored_secret = when("FactStored", "/secrets")
    with pytest.raises(NotFound):
        mem.cat("/secrets", as_of=stored_secret)
    assert not [
        r for t in TABLES for r in _rows(mem.db_path, f"SELECT * FROM {t}") if "zebra" in repr(r)
    ]
    tagged, untagged = (
        parse_time(r[0])
        for r in _rows(
            mem.db_path,
            "SELECT recorded_at FROM events WHERE stream_id = 'path:/people' ORDER BY position",
        )
    )
    alice = mem.cat("/people/alice")[0].fact.id

    def tags(at: datetime) -> set[str]:
        return {str(t) for t, _ in mem.show(alice, as_of=at).effective_tags}

    assert tagged == untagged  # one instant: shared=yes never held at any time
    assert "area=home" in tags(untagged) and "shared=yes" not in tags(untagged)
    assert not _rows(mem.db_path, "SELECT 1 FROM path_tag_versions WHERE key = 'shared'")
    assert "area=home" not in tags(restored)  # tagged only later


def test_an_undo_is_one_more_change_in_the_history(memory: Memory, clock: FixedClock) -> None:
    """A new event of a fact's stream gets its rows with no code of its own (decision 0041)."""
    fact = memory.store("/u", "Undo me.")
    clock.advance(days=1)
    memory.confirm(fact.id)
    confirmed = _later(clock)
    (confirm,) = [e for e in memory.history(fact.id) if e.type == "FactConfirmed"]
    memory.undo(confirm.position, reason="too soon")
    undone = _later(clock)
    assert memory.show(fact.id, as_of=confirmed).confidence == pytest.approx(0.975)
    assert memory.show(fact.id, as_of=undone).confidence == 0.95
    assert memory.show(fact.id, as_of=undone).last_confirmed_at is None
    assert memory.verify() == []


def test_a_lifetime_that_ran_out_is_gone_after_its_end_and_there_before(
    memory: Memory, clock: FixedClock
) -> None:
    kept = memory.store("/p", "The parking spot is C4.", lifetime="ephemeral")
    memory.pin(kept.id, reason="for today")
    live = _later(clock, days=0.5)
    clock.advance(days=2)  # ephemeral: one day; gone from recall now
    gone = clock.now() - timedelta(hours=1)
    assert _contents(memory, "/p", live) == ["The parking spot is C4."]
    assert _contents(memory, "/p", gone) == []
    then = memory.show(kept.id, as_of=live)
    assert then.fact.pinned and then.fact.lifetime == "ephemeral"
    hits = memory.recall("parking spot", as_of=live, reinforce=False)
    assert [h.fact.id for h in hits] == [kept.id]
    assert memory.recall("parking spot", as_of=gone, reinforce=False) == []
