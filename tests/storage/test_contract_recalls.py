"""When a fact was recalled: read back from the log, in log order, for that fact only."""

from __future__ import annotations

from datetime import timedelta

from contract_helpers import Events, write

from embornal import FixedClock
from embornal.domain.events import ActorKind, FactsRecalled, NewEvent
from embornal.storage.contract.store import Store


def _recalled(clock: FixedClock, *fact_ids: str) -> NewEvent:
    now = clock.now()
    return NewEvent(
        stream_id=f"recall:{now.isoformat()}:{len(fact_ids)}:{fact_ids[0]}",
        body=FactsRecalled(fact_ids=tuple(fact_ids), at=now),
        actor="default",
        actor_kind=ActorKind.PERSON,
        recorded_at=now,
    )


def test_recall_times_of_one_fact_in_log_order(
    store: Store, events: Events, clock: FixedClock
) -> None:
    a, b = write(store, events.stored("/p", "alpha"), events.stored("/p", "beta"))
    first = clock.now()
    write(store, _recalled(clock, a, b))
    clock.advance(days=2)
    write(store, _recalled(clock, b))
    clock.advance(days=3)
    write(store, _recalled(clock, a))
    assert store.recall_times(a) == [first, first + timedelta(days=5)]
    assert store.recall_times(b) == [first, first + timedelta(days=2)]


def test_no_recall_and_no_such_fact(store: Store, events: Events, clock: FixedClock) -> None:
    (a,) = write(store, events.stored("/p", "alpha"))
    assert store.recall_times(a) == []
    assert store.recall_times("01KCNOSUCHFACT000000000000") == []


def test_a_recall_of_another_fact_is_not_this_ones(
    store: Store, events: Events, clock: FixedClock
) -> None:
    """The payload is searched as text, then each decoded body is checked."""
    a, b = write(store, events.stored("/p", "alpha"), events.stored("/p", "beta"))
    write(store, _recalled(clock, b))
    assert store.recall_times(a) == []


def test_the_recalls_of_one_fact_newest_first_with_who_recalled(
    store: Store, events: Events, clock: FixedClock
) -> None:
    """The fact's access log (decision 0160): each recall's event, its actor and time."""
    a, b = write(store, events.stored("/p", "alpha"), events.stored("/p", "beta"))
    write(store, _recalled(clock, a, b))
    clock.advance(days=2)
    write(store, _recalled(clock, b))
    clock.advance(days=3)
    write(store, _recalled(clock, a))
    got = store.recalls_of(a, limit=10)
    assert [(e.actor, e.actor_kind, e.recorded_at) for e in got] == [
        ("default", ActorKind.PERSON, clock.now()),
        ("default", ActorKind.PERSON, clock.now() - timedelta(days=5)),
    ]
    assert [e.recorded_at for e in store.recalls_of(a, limit=1)] == [clock.now()]
    assert len(store.recalls_of(b, limit=10)) == 2
    assert store.recalls_of("01KCNOSUCHFACT000000000000", limit=10) == []
