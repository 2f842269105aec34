"""Importance and lifetime through the Python API (decisions 0034–0036; docs/model.md,
Lifecycle, The spine): pin, unpin, a user weight, a lifetime at store and later; an until
fact leaves recall and the default reads after its date without an event; the facts due for
confirmation; recall ranking with the spine; migration 0014, rebuild and verify."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.recall.ranking import SPINE_WEIGHTS, spine_lift
from embornal.errors import (
    AccessDenied,
    Conflict,
    InvalidImportance,
    InvalidLifetime,
    NotFound,
)
from embornal.storage.sqlite.connect import connect
from race_helpers import after_first_load

FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: Path | str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _events(mem: Memory) -> int:
    return _rows(mem.db_path, "SELECT count(*) FROM events")[0][0]


# -- pin, unpin, weight -----------------------------------------------------------------


def test_pin_unpin_and_weight_are_events_folded_and_projected(memory: Memory) -> None:
    fact = memory.store("/a", "the build uses uv")
    assert not fact.pinned and fact.user_weight is None
    pinned = memory.pin(fact.id, reason="the team's rule")
    assert pinned.pinned and memory.show(fact.id).pinned
    weighted = memory.set_weight(fact.id, 0.8)
    assert weighted.user_weight == 0.8 and weighted.pinned
    unpinned = memory.unpin(fact.id)
    assert not unpinned.pinned and unpinned.user_weight == 0.8
    assert memory.set_weight(fact.id, None).user_weight is None
    history = memory.history(fact.id)
    assert [e.type for e in history] == ["FactStored"] + ["FactImportanceAdjusted"] * 4
    assert history[1].reason == "the team's rule"
    assert history[2].payload == {
        "fact_id": fact.id,
        "pinned": True,
        "user_weight": 0.8,
        "previous_pinned": True,
    }
    assert memory.verify() == []


def test_a_change_that_changes_nothing_writes_nothing(memory: Memory) -> None:
    fact = memory.store("/a", "x")
    memory.pin(fact.id)
    before = _events(memory)
    assert memory.pin(fact.id).pinned
    memory.set_lifetime(fact.id, "standard")
    memory.unpin(fact.id)
    memory.unpin(fact.id)  # a no-op, but audited as one (decision 0065)
    assert _events(memory) == before + 2


@pytest.mark.parametrize("bad", [1.01, -1, float("inf"), "x"])
def test_a_weight_out_of_range_is_refused_and_nothing_is_written(memory: Memory, bad: Any) -> None:
    fact = memory.store("/a", "x")
    before = _events(memory)
    with pytest.raises(InvalidImportance, match=r"0 to 1|0\.\.1"):
        memory.set_weight(fact.id, bad)
    assert _events(memory) == before


def test_importance_takes_write_on_the_fact(memory: Memory) -> None:
    fact = memory.store("/a", "x")
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    bob = memory.as_subject("bob")
    for change in (
        lambda: bob.pin(fact.id),
        lambda: bob.set_weight(fact.id, 0.2),
        lambda: bob.set_lifetime(fact.id, "permanent"),
    ):
        with pytest.raises(AccessDenied, match="write"):
            change()
    memory.policy_add("p", ["bob", "path:/*", "write", "allow"])  # write is enough
    assert bob.pin(fact.id).pinned
    with pytest.raises(NotFound):
        memory.as_subject("carol").pin(fact.id)


def test_only_an_active_fact_takes_a_pin(memory: Memory) -> None:
    fact = memory.store("/a", "x")
    memory.forget(fact.id, reason="gone")
    with pytest.raises(Conflict, match="only an active fact"):
        memory.pin(fact.id)


# -- lifetime ---------------------------------------------------------------------------


def test_an_until_fact_leaves_recall_and_the_default_reads_after_its_date(
    memory: Memory, clock: FixedClock
) -> None:
    """Clock at 2026-01-01: until:2026-01-03 lives through the 3rd, then leaves."""
    keep = memory.store("/parking", "spot B2 is ours", kind="fact")
    spot = memory.store("/parking", "parking spot C4 is ours", lifetime="until:2026-01-03")
    assert spot.lifetime == "until:2026-01-03"
    assert spot.expires_at is not None and spot.expires_at.isoformat().startswith("2026-01-04")
    before = _events(memory)
    clock.advance(days=2)  # the 3rd: still live
    assert spot.id in {h.fact.id for h in memory.recall("parking spot", reinforce=False)}
    clock.advance(days=1)  # the 4th: gone, without an event
    assert _events(memory) == before
    assert [h.fact.id for h in memory.recall("parking spot", reinforce=False)] == [keep.id]
    assert spot.id not in {h.fact.id for h in memory.recall(None, reinforce=False, limit=100)}
    assert [v.fact.id for v in memory.cat("/parking")] == [keep.id]
    assert [e.fact_count for e in memory.ls("/") if e.path == "/parking"] == [1]
    assert [f.id for f in memory.find("fact", under="/parking")] == [keep.id]
    detail = memory.show(spot.id)  # still there by id: show says why it left
    assert detail.expired and detail.fact.state == "active"
    assert detail.expired_because is not None and "until:2026-01-03" in detail.expired_because
    assert spot.id in {e.stream_id for e in memory.history("/parking")}
    # Another lifetime brings it back.
    memory.set_lifetime(spot.id, "until:2026-02-01", reason="we kept it")
    assert not memory.show(spot.id).expired
    assert spot.id in {h.fact.id for h in memory.recall("parking spot", reinforce=False)}
    assert memory.verify() == []


def test_an_ephemeral_fact_leaves_recall_a_day_after_it_was_made_ephemeral(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.store("/s", "the session is about tides")
    clock.advance(days=30)
    memory.set_lifetime(fact.id, "ephemeral")  # counts from now, not from creation
    assert memory.recall("tides", reinforce=False)
    clock.advance(days=0.99)
    assert memory.recall("tides", reinforce=False)
    clock.advance(days=0.02)
    assert memory.recall("tides", reinforce=False) == []
    assert memory.show(fact.id).expired


@pytest.mark.parametrize("bad", ["until:2025-12-31", "forever", "until:soon", "until"])
def test_an_until_in_the_past_or_an_unknown_lifetime_writes_nothing(
    memory: Memory, bad: str
) -> None:
    fact = memory.store("/a", "x")
    before = _events(memory)
    with pytest.raises(InvalidLifetime):
        memory.store("/a", "y", lifetime=bad)
    with pytest.raises(InvalidLifetime):
        memory.set_lifetime(fact.id, bad)
    assert _events(memory) == before


def test_a_permanent_fact_is_never_stale_by_time(memory: Memory, clock: FixedClock) -> None:
    old = memory.store("/a", "always true", at="2016-01-01T00:00:00Z", lifetime="permanent")
    aged = memory.store("/a", "maybe outdated", at="2016-01-01T00:00:00Z")
    detail = memory.show(old.id)
    assert detail.lifetime == "permanent" and not detail.stale
    assert memory.show(aged.id).stale
    assert [d.fact.id for d in memory.due()] == [aged.id]


# -- due --------------------------------------------------------------------------------


def test_due_lists_the_stale_facts_most_urgent_first(memory: Memory) -> None:
    memory.store("/p/a", "recent")
    older = memory.store("/p/a", "a fact from 2022", at="2022-01-01T00:00:00Z")
    oldest = memory.store("/p/b", "a fact from 2019", at="2019-01-01T00:00:00Z")
    event = memory.store(
        "/q",
        "we met",
        kind="event",
        attributes={"occurred_at": "2025-09-01T00:00:00Z"},
        at="2025-09-01T00:00:00Z",
    )
    due = memory.due()
    assert [d.fact.id for d in due] == [oldest.id, event.id, older.id]
    first = due[0]
    assert first.c_eff < first.threshold == 0.35 and first.confidence == 0.95
    assert [d.fact.id for d in memory.due(limit=1)] == [oldest.id]
    assert [d.fact.id for d in memory.due(under="/p")] == [oldest.id, older.id]
    memory.confirm(oldest.id)  # vouched for: no longer due
    assert oldest.id not in {d.fact.id for d in memory.due()}


def test_due_shows_only_what_the_subject_may_read(memory: Memory) -> None:
    memory.store("/private/x", "old secret", at="2019-01-01T00:00:00Z")
    shared = memory.store("/shared/y", "old shared", at="2019-01-01T00:00:00Z")
    memory.policy_add("p", ["bob", "path:/shared/*", "read", "allow"])
    assert [d.fact.id for d in memory.as_subject("bob").due()] == [shared.id]


# -- recall ranking ---------------------------------------------------------------------


def test_default_spine_values_give_exactly_todays_totals(memory: Memory) -> None:
    for i in range(6):
        memory.store("/r", f"zebra note number {i} about zebra migrations")
    hits = memory.recall("zebra migrations", reinforce=False, mode="keyword")
    assert len(hits) == 6
    for h in hits:
        p = h.parts
        assert p.spine == 0.0 and p.c == 0.95 and not p.stale and not p.pinned
        assert h.score == p.keyword + (p.neighbour or 0.0) + 0.5 * p.strength  # exactly


def test_a_pin_and_a_weight_lift_a_fact_and_staleness_lowers_it(memory: Memory) -> None:
    a = memory.store("/r", "zebra stripes are unique")
    b = memory.store("/r2", "zebra stripes are unique")
    hits = memory.recall("zebra stripes", reinforce=False, mode="keyword")
    assert hits[0].score == hits[1].score  # a tie (broken by the ids' random part)
    memory.pin(a.id)
    hits = memory.recall("zebra stripes", reinforce=False, mode="keyword")
    assert hits[0].fact.id == a.id
    assert hits[0].parts.spine == pytest.approx(SPINE_WEIGHTS.pinned) and hits[0].parts.pinned
    memory.unpin(a.id)
    memory.set_weight(b.id, 0.1)
    hits = memory.recall("zebra stripes", reinforce=False, mode="keyword")
    assert hits[0].fact.id == a.id and hits[1].parts.user_weight == 0.1
    assert hits[1].parts.spine == pytest.approx(spine_lift(0.95, False, False, 0.1))
    stale = memory.store("/r3", "zebra stripes are unique", at="2019-01-01T00:00:00Z")
    hits = memory.recall("zebra stripes", reinforce=False, mode="keyword")
    last = next(h for h in hits if h.fact.id == stale.id)
    assert last.parts.stale and last.parts.c_eff is not None and last.parts.c_eff < 0.35
    assert hits[-1].fact.id == stale.id  # still recallable, ranked last


def test_recall_without_a_query_lifts_a_pinned_fact(memory: Memory) -> None:
    facts = [memory.store("/n", f"note {i}") for i in range(5)]
    plain = [h.fact.id for h in memory.recall(None, reinforce=False, under="/n")]
    memory.pin(facts[0].id)
    hits = memory.recall(None, reinforce=False, under="/n")
    assert hits[0].fact.id == facts[0].id and hits[0].parts.pinned
    assert [h.fact.id for h in hits[1:]] == [i for i in plain if i != facts[0].id]


# -- migration 0014, rebuild --------------------------------------------------------------


def test_migration_0014_on_a_blank_memory(memory: Memory) -> None:
    assert "0014_importance_lifetime" in memory.migrations_applied
    cols = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(facts)")]
    assert {"pinned", "user_weight", "lifetime", "lifetime_until", "expires_at"} <= set(cols)
    view = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(view_relationship)")]
    assert {"pinned", "lifetime", "until"} <= set(view)  # the relationship's own until too
    assert memory.verify() == []


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_takes_the_defaults(old_memory: Memory) -> None:
    mem = old_memory
    assert "0014_importance_lifetime" in mem.migrations_applied
    cols = "DISTINCT pinned, user_weight, lifetime, expires_at"
    where = "FROM facts f JOIN paths p ON p.id = f.path_id WHERE f.superseded_by IS NULL AND p.path"
    rows = _rows(mem.db_path, f"SELECT {cols} {where} <> '/memory'")
    assert rows == [(0, None, "standard", None)]
    # the guide alone is pinned and permanent, by 0030 (decision 0154)
    assert _rows(mem.db_path, f"SELECT {cols} {where} = '/memory'") == [
        (1, None, "permanent", None)
    ]
    assert mem.verify() == []
    hit = mem.recall("sqlite tea", reinforce=False, limit=50)[0]
    mem.pin(hit.fact.id)
    mem.set_lifetime(hit.fact.id, "until:2026-06-01")
    assert mem.rebuild() > 0 and mem.verify() == []
    assert mem.show(hit.fact.id).pinned


def test_rebuild_reproduces_importance_and_lifetime(memory: Memory, clock: FixedClock) -> None:
    a = memory.store("/a", "x", lifetime="ephemeral")
    b = memory.store("/a", "y", lifetime="until:2026-03-01")
    memory.pin(b.id)
    memory.set_weight(a.id, 0.3)
    memory.set_lifetime(a.id, "permanent")
    cols = "id, pinned, user_weight, lifetime, lifetime_until, expires_at"
    before = _rows(memory.db_path, f"SELECT {cols} FROM facts ORDER BY id")
    assert memory.rebuild() > 0 and memory.verify() == []
    assert _rows(memory.db_path, f"SELECT {cols} FROM facts ORDER BY id") == before
    conn = connect(memory.db_path)
    try:
        conn.execute("UPDATE facts SET pinned = 0 WHERE id = ?", (b.id,))
        conn.commit()
    finally:
        conn.close()
    assert any(p.startswith("facts:") for p in memory.verify())


def test_purge_keeps_no_text_of_an_importance_or_lifetime_event(memory: Memory) -> None:
    fact = memory.store("/a", "secret zebra", lifetime="until:2026-12-31")
    memory.pin(fact.id, reason="secret zebra reason")
    memory.purge(fact.id, reason="erase it")
    sql = "SELECT payload, reason FROM events WHERE stream_id = ?"
    payloads = _rows(memory.db_path, sql, fact.id)
    assert not any("secret zebra" in (p or "") + (r or "") for p, r in payloads)


def test_two_writers_pinning_and_weighting_one_fact_both_land(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The weight is decided on the state after the other writer's pin: the event keeps
    the pin, and its ``previous_pinned`` says so (decided again on fresh state)."""
    with Memory.open(db_path, clock=clock) as a, Memory.open(db_path, clock=clock) as b:
        fact = a.store("/a", "x")
        loads = after_first_load(a, monkeypatch, lambda: b.pin(fact.id))
        got = a.set_weight(fact.id, 0.7)
        assert len(loads) == 2  # a's first append met b's event and ran again
        assert got.pinned and got.user_weight == 0.7
        last = a.history(fact.id)[-1]
        assert last.payload["previous_pinned"] is True and last.payload["pinned"] is True
        assert a.verify() == []
