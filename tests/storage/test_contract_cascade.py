"""The reads of the recall cascade (decision 0095): ``anchor_facts`` gives the live pinned
facts in scope in the order stored, ``frames_of`` the frame of each fact that has one."""

from __future__ import annotations

from contract_helpers import Events, scope, write

from embornal.domain.access.scope import EVERYTHING
from embornal.domain.events import ActorKind, NewEvent
from embornal.domain.events.canon import MemoryFramed
from embornal.domain.events.types import DomainEvent, FactImportanceAdjusted
from embornal.domain.guide import without_guide
from embornal.storage.contract.store import Store


def _on(events: Events, fact_id: str, body: DomainEvent) -> NewEvent:
    return NewEvent(fact_id, body, "default", ActorKind.PERSON, events.clock.now(), "test")


def _pin(events: Events, fact_id: str) -> NewEvent:
    return _on(events, fact_id, FactImportanceAdjusted(fact_id=fact_id, pinned=True))


OUTSIDE_GUIDE = without_guide(EVERYTHING)  # a new memory's guide is pinned (decision 0154)


def test_anchor_facts_are_the_live_pinned_ones_in_scope(store: Store, events: Events) -> None:
    ids = [
        write(store, events.stored(f"/{where}/n", f"note {i}"))[0]
        for i, where in enumerate(("public", "private", "public", "public"))
    ]
    assert store.canon.anchor_facts(OUTSIDE_GUIDE, limit=10) == []
    write(store, *(_pin(events, fid) for fid in ids[:3]))
    write(store, events.forgotten(ids[2]))
    write(store, _pin(events, ids[3]))
    assert [f.id for f in store.canon.anchor_facts(OUTSIDE_GUIDE, limit=10)] == [
        ids[0],
        ids[1],
        ids[3],
    ]
    assert [f.id for f in store.canon.anchor_facts(OUTSIDE_GUIDE, limit=1)] == [ids[0]]
    public = scope(("allow", "path:/public/*"))
    assert [f.id for f in store.canon.anchor_facts(public, limit=10)] == [ids[0], ids[3]]
    assert all(f.pinned for f in store.canon.anchor_facts(OUTSIDE_GUIDE, limit=10))


def test_frames_of_names_the_frame_of_each_fact_that_has_one(store: Store, events: Events) -> None:
    ids = [write(store, events.stored("/n", f"note {i}"))[0] for i in range(3)]
    assert store.canon.frames_of([]) == {} and store.canon.frames_of(ids) == {}
    write(store, _on(events, ids[0], MemoryFramed(fact_id=ids[0], frame="work")))
    write(store, _on(events, ids[1], MemoryFramed(fact_id=ids[1], frame="home")))
    write(store, _on(events, ids[0], MemoryFramed(fact_id=ids[0], frame="team-a", previous="work")))
    assert store.canon.frames_of(ids) == {ids[0]: "team-a", ids[1]: "home"}
    assert store.canon.frames_of([ids[2], "01ZZZZZZZZZZZZZZZZZZZZZZZZ"]) == {}
