"""The audit read (``audit_events``): the events of the facts in scope, the newest first,
forgotten facts included, recalls and facts out of scope left out."""

from __future__ import annotations

from contract_helpers import Events, scope, write

from embornal.domain.access.scope import EVERYTHING
from embornal.storage.contract.store import Store

PUBLIC = scope(("allow", "path:/public/*"))


def test_the_events_of_facts_in_scope_newest_first(store: Store, events: Events) -> None:
    shown, hidden = write(
        store, events.stored("/public/notes", "shown"), events.stored("/private/notes", "hidden")
    )
    write(store, events.forgotten(shown))
    got = store.protocol.audit_events(EVERYTHING, limit=10)
    mine = [(e.stream_id, e.type) for e in got if e.stream_id in (shown, hidden)]
    assert mine == [(shown, "FactForgotten"), (hidden, "FactStored"), (shown, "FactStored")]
    positions = [e.position for e in got]
    assert positions == sorted(positions, reverse=True)
    public = store.protocol.audit_events(PUBLIC, limit=10)
    assert {e.stream_id for e in public} == {shown}  # a forgotten fact stays audited


def test_a_limit_and_a_position_bound_page_through_it(store: Store, events: Events) -> None:
    ids = write(store, *(events.stored("/public/p", f"fact {i}") for i in range(5)))
    first = store.protocol.audit_events(PUBLIC, limit=2)
    assert [e.stream_id for e in first] == ids[:-3:-1]
    rest = store.protocol.audit_events(PUBLIC, limit=10, before=first[-1].position)
    assert [e.stream_id for e in rest] == ids[2::-1]
