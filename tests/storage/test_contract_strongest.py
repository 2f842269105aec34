"""``strongest`` gives exactly what ranking every live fact by its strength at ``now``
gives (strongest first, then the latest stored), however recalls have spread the
stabilities; the SQLite store reads it from two index ranges. Under a path, the SQLite
store walks the anchor index kept to the subtree's paths and falls back to the subtree's
own facts when the walk holds too few: both give what the plain read gives."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.domain.clock import format_time
from embornal.domain.events import ActorKind, FactsRecalled, NewEvent
from embornal.domain.facts.fact import Fact
from embornal.domain.spine.strength import strength
from embornal.storage.common import strongest as strongest_module
from embornal.storage.contract.store import Store


def _recalled(clock: FixedClock, ids: list[str]) -> NewEvent:
    body = FactsRecalled(fact_ids=tuple(ids), at=clock.now())
    return NewEvent(
        f"recall:{format_time(clock.now())}", body, "default", ActorKind.PERSON, clock.now()
    )


def _by_strength(facts: list[Fact], store_order: list[str], now: object) -> list[str]:
    rank = {fid: i for i, fid in enumerate(store_order)}  # seq order: later stored first
    return [f.id for f in sorted(facts, key=lambda f: (-strength(f.signals, now), rank[f.id]))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strongest_is_the_full_ranking_cut(
    store: Store, events: Events, clock: FixedClock, seed: int
) -> None:
    rng = random.Random(seed)
    ids: list[str] = []
    for n in range(240):
        clock.advance(seconds=rng.randint(1, 6 * 3600))
        path = f"/s/{n % 4}"
        (fid,) = write(store, events.stored(path, f"fact {n}", fact_id=events.new_id()))
        ids.append(fid)
        if rng.random() < 0.25:  # recalls: stabilities spread, anchors move
            write(store, _recalled(clock, rng.sample(ids, k=min(len(ids), rng.randint(1, 8)))))
    gone = rng.sample(ids, 20)
    for fid in gone:
        write(store, events.forgotten(fid))
    live = [f for f in store.get_facts(ids) if f.id not in gone]
    newest_first = [f.id for f in reversed(store.get_facts(ids))]
    for days in (0, 0.5, 3, 40):
        now = clock.now() + timedelta(days=days)
        expected = _by_strength(live, newest_first, now)
        for limit in (1, 7, 50, 300):
            got = [f.id for f in store.strongest(limit, format_time(now), under="/s")]
            assert got == expected[:limit], (days, limit)
        under = [f for f in live if f.path == "/s/2"]
        got = [f.id for f in store.strongest(10, format_time(now), under="/s/2")]
        assert got == _by_strength(under, newest_first, now)[:10]


def test_facts_never_recalled_rank_newest_first(
    store: Store, events: Events, clock: FixedClock
) -> None:
    ids = []
    for n in range(30):
        clock.advance(seconds=60)
        ids.extend(write(store, events.stored("/n", f"plain {n}", fact_id=events.new_id())))
    got = [f.id for f in store.strongest(5, format_time(clock.now()), under="/n")]
    assert got == list(reversed(ids))[:5]


#: Paths near ``/s`` in the order of their text: ``/s-x`` and ``/s0`` sort around the
#: subtree's range and are outside it, ``/sa`` after it.
_NEAR = ["/s", "/s/a", "/s/a/b", "/s/b", "/s-x", "/s0", "/sa", "/t/s", "/"]


@pytest.mark.parametrize("walks", [(1, 1), (1, 3), (2, 1_000), (50, 500)])
def test_strongest_under_a_path_is_the_subtree_ranking_cut(
    store: Store,
    events: Events,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    walks: tuple[int, int],
) -> None:
    """Walks too short for the subtree (1, 2, 3 entries a fact asked) fall back to the
    longer walk or the subtree's facts; long ones answer alone: the same facts either way,
    for a subtree of one fact, of most facts, of forgotten facts and none, and a scope."""
    monkeypatch.setattr(strongest_module, "SHORT_WALK_PER_HIT", walks[0])
    monkeypatch.setattr(strongest_module, "WALK_PER_HIT", walks[1])
    rng = random.Random(sum(walks))
    weights = [30, 10, 5, 2, 6, 6, 6, 6, 6]
    ids: list[str] = []
    for n in range(300):
        clock.advance(seconds=rng.randint(1, 3 * 3600))
        path = rng.choices(_NEAR, weights=weights)[0]
        tags = [("visibility", "public")] if n % 3 == 0 else []
        stored = events.stored(path, f"fact {n}", fact_id=events.new_id(), tags=tags)
        (fid,) = write(store, stored)
        ids.append(fid)
        if rng.random() < 0.2:
            write(store, _recalled(clock, rng.sample(ids, k=min(len(ids), rng.randint(1, 6)))))
    lone = events.new_id()
    write(store, events.stored("/lone/one", "the only fact here", fact_id=lone))
    ids.append(lone)
    (gone,) = write(store, events.stored("/empty/x", "forgotten", fact_id=events.new_id()))
    write(store, events.forgotten(gone))
    for fid in rng.sample(ids[:-1], 25):
        write(store, events.forgotten(fid))
    live_ids = {f.id for f in store.get_facts(ids) if f.deleted_at is None}
    live = [f for f in store.get_facts(ids) if f.id in live_ids]
    newest_first = [f.id for f in reversed(store.get_facts(ids))]
    public = scope(("allow", "tag:visibility=public"))
    for days in (0, 2, 30):
        now = clock.now() + timedelta(days=days)
        for under in ("/s", "/s/a", "/s0", "/lone", "/empty", "/none", "/t"):
            inside = [f for f in live if f.path == under or f.path.startswith(under + "/")]
            expected = _by_strength(inside, newest_first, now)
            for limit in (1, 5, 40, 400):
                got = [f.id for f in store.strongest(limit, format_time(now), under=under)]
                assert got == expected[:limit], (days, under, limit)
            seen = [
                f for f in inside if ("visibility", "public") in {(t.key, t.value) for t in f.tags}
            ]
            got = [f.id for f in store.strongest(5, format_time(now), public, under=under)]
            assert got == _by_strength(seen, newest_first, now)[:5], (days, under)
