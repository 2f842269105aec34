"""Events as a subject is shown them: the ids of facts it may not read masked (decision 0130).

A fact's history, its detail (now or at a past time) and a partial export show the events
of facts the subject may read; such an event can still name another fact in its payload
(a link's target, the fact a contradiction came from, a merged source, the fact a
correction supersedes). Each event class declares which of its fields name facts
(``FACT_ID_FIELDS``); the registry masks the ids the subject may not read, here, for
every surface, so no endpoint keeps a list of keys of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from embornal.domain.events import EVENTS, Event
from embornal.service.context import ServiceContext

__all__ = ["readable_named", "shown_events"]


def readable_named(ctx: ServiceContext, events: Iterable[Event]) -> set[str]:
    """The facts ``events`` name that the subject may read (whatever their state)."""
    named: set[str] = set()
    for e in events:
        if EVENTS.knows(e.type):
            named |= EVENTS.named_facts(e.type, e.payload)
    if not named:
        return set()
    return {f.id for f in ctx.store.get_facts(sorted(named), ctx.scope())}


def shown_events(ctx: ServiceContext, events: Iterable[Event]) -> list[Event]:
    """``events`` with every fact the subject may not read masked in their payloads."""
    found = list(events)
    readable = readable_named(ctx, found)
    return [mask(e, readable) for e in found]


def mask(event: Event, readable: set[str]) -> Event:
    """``event`` with the facts outside ``readable`` masked (itself when it names none)."""
    if not EVENTS.knows(event.type):
        return event
    payload = EVENTS.hide_facts(event.type, event.payload, readable)
    return event if payload is None else replace(event, payload=payload)
