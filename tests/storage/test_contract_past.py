"""The reads of a past time (``store.as_of(at)``): from the history tables, scoped as now."""

from __future__ import annotations

from datetime import timedelta

from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.domain.access.scope import NOTHING
from embornal.domain.events import ActorKind, FactRestored, FactsRecalled, NewEvent, PathUntagged
from embornal.domain.facts.tags import Tag
from embornal.storage.contract.store import PastReads, Store


def _event(clock: FixedClock, stream: str, body: object) -> NewEvent:
    return NewEvent(stream, body, "default", ActorKind.PERSON, clock.now())  # type: ignore[arg-type]


def test_a_fact_in_each_of_its_states(store: Store, events: Events, clock: FixedClock) -> None:
    start = clock.now()
    (fid,) = write(store, events.stored("/p", "alpha"))
    clock.advance(days=1)
    write(store, events.forgotten(fid))
    clock.advance(days=1)
    write(store, _event(clock, fid, FactRestored(fact_id=fid)))
    clock.advance(days=1)
    (new,) = write(store, events.stored("/p", "beta", supersedes=fid))

    def at(days: float) -> PastReads:
        past = store.as_of(start + timedelta(days=days))
        assert isinstance(past, PastReads)
        return past

    assert at(-1).get_fact(fid) is None and at(-1).facts_at("/p") == []
    states = [fact.state for d in (0.5, 1.5, 2.5, 3.5) if (fact := at(d).get_fact(fid))]
    assert states == ["active", "forgotten", "active", "superseded"]
    assert [f.content for f in at(1.5).facts_at("/p", include_inactive=True)] == ["alpha"]
    assert [f.id for f in at(3.5).facts_at("/p")] == [new]
    assert "/p" not in [r.path for r in at(1.5).subtree("/")]  # the guide's /memory is there
    assert ("/p", 1) in [(r.path, r.fact_count) for r in at(0.5).subtree("/")]
    assert [f.id for f, _ in at(0.5).keyword_search(["alpha"], 5)] == [fid]
    assert at(1.5).keyword_search(["alpha"], 5) == []
    assert at(3.5).keyword_search(["alpha"], 5) == []
    assert [f.id for f, _ in at(3.5).keyword_search(["alpha"], 5, include_superseded=True)] == [fid]
    assert at(3.5).get_fact(fid) is not None
    assert at(3.5).get_fact(fid).superseded_by == new  # type: ignore[union-attr]


def test_signals_tags_and_scope_then(store: Store, events: Events, clock: FixedClock) -> None:
    start = clock.now()
    (fid,) = write(store, events.stored("/public/x", "gamma", tags=[("k", "v")]))
    write(store, events.path_tagged("/public", [("area", "work")]))
    clock.advance(days=1)
    write(store, _event(clock, "recall:1", FactsRecalled(fact_ids=(fid,), at=clock.now())))
    write(store, _event(clock, "path:/public", PathUntagged(path="/public", keys=("area",))))
    before = store.as_of(start + timedelta(hours=12))
    after = store.as_of(start + timedelta(days=1, hours=1))

    then, now = before.get_fact(fid), after.get_fact(fid)
    assert then is not None and now is not None
    assert (then.recall_count, now.recall_count) == (0, 1)
    assert Tag("k", "v") in then.tags
    assert (Tag("area", "work"), "/public") in before.effective_tags(fid)
    assert [t.key for t, _ in after.effective_tags(fid)] == ["k", "owner"]
    assert [f.id for f in before.strongest(5, "2026-01-01T12:00:00.000000Z", under="/public")] == [
        fid
    ]
    public = scope(("allow", "path:/public/*"))
    assert before.get_fact(fid, public) is not None
    assert before.get_fact(fid, NOTHING) is None and before.facts_at("/public/x", NOTHING) == []
    assert before.subtree("/", NOTHING) == []


def test_signals_of_recalls_of_many_facts_then(
    store: Store, events: Events, clock: FixedClock
) -> None:
    """Each recall's facts get their signals from its time: twice at one instant is one
    row (the later stands), a fact named twice in one recall counts once, a recall recorded
    before a fact's last row changes that row, and a fact not recalled has none."""
    start = clock.now()
    a, b, c = write(
        store, events.stored("/p", "alpha"), events.stored("/p", "beta"), events.stored("/p", "c")
    )

    def recall(stream: str, *ids: str) -> None:
        write(store, _event(clock, stream, FactsRecalled(fact_ids=ids, at=clock.now())))

    clock.advance(days=1)
    t1 = clock.now()
    recall("recall:1", a, b)
    recall("recall:2", a)  # the same instant
    clock.advance(days=1)
    t2 = clock.now()
    recall("recall:3", a, b, a)
    clock.current = t1  # a recall recorded before b's last row
    recall("recall:4", b)

    def counts(at: object) -> list[int]:
        past = store.as_of(at)  # type: ignore[arg-type]
        found = [past.get_fact(f) for f in (a, b, c)]
        return [f.recall_count if f is not None else -1 for f in found]

    assert counts(start + timedelta(hours=12)) == [0, 0, 0]
    assert counts(t1 + timedelta(hours=1)) == [2, 1, 0]
    assert counts(t2 + timedelta(hours=1)) == [3, 3, 0]
    now = [store.get_fact(f) for f in (a, b, c)]
    assert [f.recall_count for f in now if f is not None] == [3, 3, 0]


def test_a_purged_fact_is_absent_at_every_time(
    store: Store, events: Events, clock: FixedClock
) -> None:
    start = clock.now()
    (fid,) = write(store, events.stored("/s", "a secret", tags=[("colour", "red")]))
    clock.advance(days=1)
    write(store, events.purged(fid))
    then = store.as_of(start + timedelta(hours=1))
    assert then.get_fact(fid) is None and then.facts_at("/s") == []
    assert then.subtree("/") == [] or all(r.path != "/s" for r in then.subtree("/"))
    assert [t.key for t, _ in then.effective_tags(fid)] == ["owner"]


def _typed(events: Events, path: str, kind: str, attributes: dict[str, object]) -> NewEvent:
    from dataclasses import replace

    plain = events.stored(path, f"a {kind}")
    body = replace(plain.body, kind=kind, attributes=attributes, kind_version=1)  # type: ignore[type-var]
    return replace(plain, body=body)


def test_find_neighbours_and_strength_then(store: Store, events: Events, clock: FixedClock) -> None:
    from embornal.domain.events import FactAttributesUpdated
    from embornal.domain.facts.attributes import Condition

    start = clock.now()
    (project,) = write(
        store,
        _typed(events, "/work", "project", {"name": "Apollo", "status": "active", "summary": "S"}),
    )
    first, hidden, third = write(
        store,
        events.stored("/chat", "one", minutes=1, tags=[("visibility", "public")]),
        events.stored("/chat", "two", minutes=2),
        events.stored("/chat", "three", minutes=3, tags=[("visibility", "public")]),
    )
    clock.advance(days=1)
    update = FactAttributesUpdated(fact_id=project, changes={"status": "done"}, kind_version=1)
    write(store, _event(clock, project, update))
    write(store, events.forgotten(hidden))
    then, now = store.as_of(start + timedelta(hours=1)), store.as_of(clock.now())

    active = [Condition("status", "active")]
    assert [f.id for f in then.find_by_kind("project", active)] == [project]
    assert then.find_by_kind("project", [Condition("status", "done")]) == []
    assert [f.id for f in now.find_by_kind("project", [Condition("status", "done")])] == [project]
    assert now.find_by_kind("project", active) == []
    assert then.find_by_kind("project", active, under="/chat") == []
    fact = then.get_fact(project)
    assert fact is not None and fact.attributes["summary"] == "S"
    assert isinstance(fact.confidence, float) and fact.pinned is False  # typed, not text

    public = scope(("allow", "tag:visibility=public"))
    assert then.neighbours([first], reach=1)[first] == ((hidden,),)
    assert now.neighbours([first], reach=1)[first] == ((third,),)
    assert then.neighbours([first], reach=1, scope=public)[first] == ((third,),)

    # strength at a far later time: every fact as weak as can be, the latest stored first
    far = "2126-01-01T00:00:00.000000Z"
    assert [f.id for f in then.strongest(3, far, under="/chat")] == [third, hidden, first]
    assert [f.id for f in now.strongest(5, far, under="/chat")] == [third, first]
