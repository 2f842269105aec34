"""Kind queries, entity keys and conflicts: what ``find`` and conflict detection read."""

from __future__ import annotations

from contract_helpers import Events, scope, write

from embornal.domain.conflicts.resolution import keys_of
from embornal.domain.events import ActorKind, NewEvent
from embornal.domain.events.conflicts import ConflictOpened, ConflictResolved
from embornal.domain.facts.attributes import Condition
from embornal.storage.contract.store import Store

PUBLIC = scope(("allow", "path:/public/*"))


def _typed(events: Events, path: str, kind: str, attributes: dict[str, object]) -> NewEvent:
    from dataclasses import replace

    plain = events.stored(path, f"a {kind}")
    body = replace(plain.body, kind=kind, attributes=attributes, kind_version=1)  # type: ignore[type-var]
    return replace(plain, body=body)


def _conflict(events: Events, body: ConflictOpened | ConflictResolved) -> NewEvent:
    return NewEvent(
        stream_id=f"conflict:{body.conflict_id}",
        body=body,
        actor="default",
        actor_kind=ActorKind.PERSON,
        recorded_at=events.clock.now(),
        reason="a test",
    )


def test_find_by_kind_meets_every_condition_in_scope(store: Store, events: Events) -> None:
    active, done, hidden = write(
        store,
        _typed(events, "/public/p", "project", {"name": "Apollo", "status": "active"}),
        _typed(events, "/public/p", "project", {"name": "Gemini", "status": "done"}),
        _typed(events, "/private/p", "project", {"name": "Mercury", "status": "active"}),
    )
    write(store, _typed(events, "/public/q", "person", {"full_name": "Anne Active"}))
    found = store.find_by_kind("project", [Condition("status", "active")])
    assert [f.id for f in found] == [active, hidden]
    assert [
        f.id for f in store.find_by_kind("project", [Condition("status", "active")], PUBLIC)
    ] == [active]
    both = [Condition("status", "done"), Condition("name", "Gemini")]
    assert [f.id for f in store.find_by_kind("project", both)] == [done]
    assert store.find_by_kind("project", [Condition("status", "active")], under="/public/q") == []
    assert store.find_by_kind("project", [Condition("status", None)]) == []
    assert len(store.find_by_kind("project", [], limit=2)) == 2


def test_entity_keys_find_the_live_namesakes(store: Store, events: Events) -> None:
    a, b = write(
        store,
        _typed(events, "/people", "person", {"full_name": "Anne Dupont"}),
        _typed(events, "/people", "person", {"full_name": "Anne Dupont"}),
    )
    keys = sorted(keys_of(a, "person", {"full_name": "Anne Dupont"}))
    assert keys
    assert store.conflicts.entity_matches(keys, exclude=a) == [b]
    assert (a, b) in store.conflicts.entity_groups()
    write(store, events.forgotten(b))
    assert store.conflicts.entity_matches(keys, exclude=a) == []
    assert (a, b) not in store.conflicts.entity_groups()


def test_conflicts_as_their_streams_say(store: Store, events: Events) -> None:
    a, b = write(store, events.stored("/c", "one thing"), events.stored("/c", "one thing too"))
    opened = ConflictOpened(
        conflict_id="01KCCONFLICT00000000000001",
        conflict_class="duplicate",
        members=(a, b),
        findings=("same_text",),
        score=0.9,
        detected_by="store",
        suggested_keep=a,
    )
    write(store, _conflict(events, opened))
    (state,) = store.conflicts.conflict_states(status="open")
    assert (state.conflict_id, state.members, state.suggested_keep) == (
        opened.conflict_id,
        (a, b),
        a,
    )
    assert [s.conflict_id for s in store.conflicts.conflict_states(fact_id=b)] == [
        opened.conflict_id
    ]
    resolved = ConflictResolved(conflict_id=opened.conflict_id, outcome="both")
    write(store, _conflict(events, resolved))
    assert store.conflicts.conflict_states(status="open") == []
    (state,) = store.conflicts.conflict_states(prefix="01KCCONFLICT")
    assert state.outcome is not None and state.outcome.value == "both"
    assert store.verify() == []
