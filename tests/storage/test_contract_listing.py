"""``list_rows`` filters, counts, sorts and pages the live facts in scope in the database,
and its strength bounds and strongest order agree with :func:`strength` at ``now``;
``link_map`` gives the most linked facts in scope and the links between them, with the
totals of the whole map (decision 0159)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.domain.access.scope import EVERYTHING
from embornal.domain.clock import format_time
from embornal.domain.events import ActorKind, FactsRecalled, FactStored, NewEvent
from embornal.domain.events.graph import FactLinked
from embornal.domain.events.protocol import MemoryCaptured
from embornal.domain.guide import without_guide
from embornal.domain.spine.strength import strength
from embornal.storage.contract.listing import ListFilter
from embornal.storage.contract.store import Store

#: The whole memory less its guide under /memory (each store is seeded with it).
ALL = without_guide(EVERYTHING)


def _new(events: Events, stream: str, body: object) -> NewEvent:
    return NewEvent(stream, body, "default", ActorKind.PERSON, events.clock.now())  # type: ignore[arg-type]


def _seed(store: Store, events: Events, clock: FixedClock) -> list[str]:
    """Twelve facts, an hour apart: paths /a/x, /a/y, /b; kinds, owners, tags, confidences
    alternate; two are working interpretations; one is forgotten; some recalled."""
    ids: list[str] = []
    for n in range(12):
        clock.advance(seconds=3600)
        stored = events.stored(
            ["/a/x", "/a/y", "/b"][n % 3],
            f"fact {n}",
            owner="alice" if n % 2 else "bob",
            tags=[("topic", "red" if n % 4 == 0 else "blue")],
        )
        assert isinstance(stored.body, FactStored)
        kind = "person" if n % 3 == 0 else "fact"
        body = replace(stored.body, kind=kind, confidence=n / 12)
        new = [replace(stored, body=body)]
        if n in (4, 7):
            new.append(
                _new(
                    events,
                    stored.stream_id,
                    MemoryCaptured(stored.stream_id, tier="interpretation"),
                )
            )
        ids.append(write(store, *new)[0])
    clock.advance(seconds=600)
    write(store, _new(events, "recall:1", FactsRecalled(fact_ids=(ids[1], ids[5]), at=clock.now())))
    write(store, events.forgotten(ids[11]))
    return ids


def _ids(
    store: Store,
    where: ListFilter,
    *,
    offset: int = 0,
    limit: int = 50,
    read: object = ALL,
    now: str | None = None,
) -> list[str]:
    at = now or format_time(store.clock.now())  # type: ignore[attr-defined]
    page = store.listing.list_rows(where, read, now=at, offset=offset, limit=limit)  # type: ignore[arg-type]
    return [r.fact.id for r in page.rows]


def test_list_filters_each_field(store: Store, events: Events, clock: FixedClock) -> None:
    ids = _seed(store, events, clock)
    live = ids[:11]
    oldest = ListFilter(sort="oldest")
    assert _ids(store, oldest) == live
    assert _ids(store, ListFilter(sort="oldest", under="/a")) == [
        i for n, i in enumerate(live) if n % 3 < 2
    ]
    assert _ids(store, ListFilter(sort="oldest", under="/a/x")) == live[0::3]
    assert _ids(store, ListFilter(sort="oldest", kind="person")) == live[0::3]
    assert _ids(store, ListFilter(sort="oldest", owner="alice")) == live[1::2]
    assert _ids(store, ListFilter(sort="oldest", tag=("topic", "red"))) == live[0::4]
    assert _ids(store, ListFilter(sort="oldest", stage="working")) == [ids[4], ids[7]]
    assert _ids(store, ListFilter(sort="oldest", tier="interpretation")) == [ids[4], ids[7]]
    assert (
        _ids(store, ListFilter(sort="oldest", min_confidence=0.5, max_confidence=0.7)) == ids[6:9]
    )
    both = ListFilter(sort="oldest", under="/a", owner="bob", kind="fact")
    assert _ids(store, both) == [i for n, i in enumerate(live) if n % 3 == 1 and n % 2 == 0]


def test_list_rows_carry_stage_and_tier(store: Store, events: Events, clock: FixedClock) -> None:
    ids = _seed(store, events, clock)
    page = store.listing.list_rows(
        ListFilter(sort="oldest"), ALL, now=format_time(clock.now()), offset=0, limit=50
    )
    rows = {r.fact.id: r for r in page.rows}
    assert (rows[ids[4]].stage, rows[ids[4]].tier) == ("working", "interpretation")
    assert rows[ids[0]].stage in (None, "consolidated")


def test_list_pages_and_counts(store: Store, events: Events, clock: FixedClock) -> None:
    ids = _seed(store, events, clock)
    newest = list(reversed(ids[:11]))
    where = ListFilter(sort="newest")
    pages = [_ids(store, where, offset=o, limit=4) for o in (0, 4, 8, 12)]
    assert pages == [newest[:4], newest[4:8], newest[8:], []]
    now = format_time(clock.now())
    assert store.listing.list_rows(where, ALL, now=now, offset=0, limit=4).total == 11
    assert store.listing.list_rows(where, ALL, now=now, offset=40, limit=4).total == 11
    assert _ids(store, ListFilter(sort="path"))[:4] == [ids[0], ids[3], ids[6], ids[9]]


def test_list_strength_agrees_with_the_domain(
    store: Store, events: Events, clock: FixedClock
) -> None:
    ids = _seed(store, events, clock)
    facts = store.get_facts(ids[:11])
    for days in (0.0, 0.3, 2.0):
        at = clock.now() + timedelta(days=days)
        now = format_time(at)
        power = {f.id: strength(f.signals, at) for f in facts}
        seq = {fid: n for n, fid in enumerate(ids)}
        expected = sorted(power, key=lambda i: (-power[i], -seq[i]))
        assert _ids(store, ListFilter(sort="strongest"), now=now) == expected
        assert _ids(store, ListFilter(sort="weakest"), now=now) == expected[::-1]
        values = sorted(power.values())
        low, high = values[3], values[8]
        mid = ListFilter(sort="strongest", min_strength=low - 1e-6, max_strength=high + 1e-6)
        assert set(_ids(store, mid, now=now)) == {i for i, s in power.items() if low <= s <= high}
    assert _ids(store, ListFilter(max_strength=0.0)) == []
    assert len(_ids(store, ListFilter(min_strength=0.0, max_strength=1.0))) == 11


def test_list_reads_through_the_scope(store: Store, events: Events, clock: FixedClock) -> None:
    ids = _seed(store, events, clock)
    only_a = scope(("allow", "path:/a/*"))
    now = format_time(clock.now())
    page = store.listing.list_rows(ListFilter(sort="oldest"), only_a, now=now, offset=0, limit=50)
    assert [r.fact.id for r in page.rows] == [i for n, i in enumerate(ids[:11]) if n % 3 < 2]
    assert page.total == len(page.rows)
    assert (
        store.listing.list_rows(ListFilter(under="/b"), only_a, now=now, offset=0, limit=5).total
        == 0
    )


def _linked(events: Events, source: str, relation: str, target: str) -> NewEvent:
    return _new(events, source, FactLinked(fact_id=source, relation=relation, target_id=target))


def test_link_map_most_linked_first(store: Store, events: Events, clock: FixedClock) -> None:
    ids = _seed(store, events, clock)
    a0, a1, b2, a3, a4, b5 = ids[:6]
    write(
        store,
        _linked(events, a0, "supports", a1),
        _linked(events, a0, "supports", b2),
        _linked(events, a0, "refines", a3),
        _linked(events, a1, "refines", a4),
        _linked(events, b5, "supports", ids[11]),  # to a forgotten fact: not on the map
    )
    whole = store.listing.link_map(ALL, limit=10)
    assert whole.nodes[0] == (a0, 3)
    assert dict(whole.nodes) == {a0: 3, a1: 2, b2: 1, a3: 1, a4: 1}
    assert (whole.total_nodes, whole.total_edges, len(whole.edges)) == (5, 4, 4)
    top = store.listing.link_map(ALL, limit=2)
    assert dict(top.nodes) == {a0: 3, a1: 2}
    assert top.edges == ((a0, "supports", a1),)
    assert (top.total_nodes, top.total_edges) == (5, 4)
    refines = store.listing.link_map(ALL, relation="refines", limit=10)
    assert dict(refines.nodes) == {a0: 1, a3: 1, a1: 1, a4: 1}
    under_b = store.listing.link_map(ALL, under="/b", limit=10)
    assert under_b.edges == ((a0, "supports", b2),)
    only_a = store.listing.link_map(scope(("allow", "path:/a/*")), limit=10)
    assert b2 not in dict(only_a.nodes)
    assert (only_a.total_nodes, only_a.total_edges) == (4, 3)
    none = store.listing.link_map(ALL, limit=0)
    assert (none.nodes, none.total_nodes, none.total_edges) == ((), 5, 4)


def test_a_link_made_again_is_one_link_at_its_latest_position(
    store: Store, events: Events, clock: FixedClock
) -> None:
    """Both backends run the one upsert of the links' projection (written once)."""
    a0, a1, b2 = _seed(store, events, clock)[:3]
    write(store, _linked(events, a0, "supports", a1), _linked(events, a0, "supports", b2))
    assert store.links.link_rows([a0], "out") == [(a0, "supports", a1), (a0, "supports", b2)]
    write(store, _linked(events, a0, "supports", a1))
    assert store.links.link_rows([a0], "out") == [(a0, "supports", b2), (a0, "supports", a1)]
