"""The claims ledger's reads (``ClaimReads``, decision 0081): the claims projection as its
streams make it, the memories each claim ever cited, and id prefixes."""

from __future__ import annotations

from contract_helpers import Events, write

from embornal.domain.claims.ledger import stream_of
from embornal.domain.events import ActorKind, DomainEvent, NewEvent
from embornal.domain.events.claims import (
    ClaimAdopted,
    ClaimCreated,
    ClaimEvidenceAdded,
    ClaimWithdrawn,
)
from embornal.storage.contract.store import Store


def _on(events: Events, claim_id: str, body: DomainEvent) -> NewEvent:
    events.clock.advance(seconds=1)
    return NewEvent(stream_of(claim_id), body, "ada", ActorKind.PERSON, events.clock.now(), "why")


def test_claims_as_their_streams_make_them(store: Store, events: Events) -> None:
    (m1, m2) = write(store, events.stored("/a", "one"), events.stored("/b", "two"))
    write(store, _on(events, "C1", ClaimCreated("C1", "One.", "plan", about=(m1,))))
    write(store, _on(events, "C2", ClaimCreated("C2", "Two.", "observation", scope="s")))
    write(
        store,
        _on(events, "C1", ClaimEvidenceAdded("C1", "C1-1", "supports", memory_id=m2)),
        _on(events, "C1", ClaimAdopted("C1")),
    )
    write(
        store,
        _on(events, "C2", ClaimEvidenceAdded("C2", "C2-1", "supports", source="x")),
        _on(events, "C2", ClaimWithdrawn("C2")),
    )
    rows = store.claims.claim_rows()
    assert [(r.claim_id, r.status, r.owner, r.scope) for r in rows] == [
        ("C2", "withdrawn", "ada", "s"),
        ("C1", "adopted", "ada", "global"),
    ]
    assert [r.claim_id for r in store.claims.claim_rows(status="adopted")] == ["C1"]
    assert [r.claim_id for r in store.claims.claim_rows(scope="s")] == ["C2"]
    first = rows[1].recorded_at
    assert [r.claim_id for r in store.claims.claim_rows(recorded_by=first)] == ["C1"]
    assert store.claims.claim_citations(["C1", "C2"]) == {"C1": tuple(sorted((m1, m2)))}
    assert [r.claim_id for r in store.claims.claims_citing(m2)] == ["C1"]  # as its evidence
    assert [r.claim_id for r in store.claims.claims_citing(m1)] == ["C1"]  # what it is about
    assert store.claims.claims_citing("01KCNOSUCHFACT000000000000") == []
    assert store.claims.claim_ids("C") == ["C1", "C2"] and store.claims.claim_ids("C2") == ["C2"]
    assert store.claims.claim_ids("C", after="C1", limit=5) == ["C2"]  # the service pages through
    assert store.claims.claim_ids("C", limit=1) == ["C1"]
    assert store.verify() == []


def test_the_events_of_some_types_newest_first_below_a_position(
    store: Store, events: Events
) -> None:
    """The audit's read of the claims' and narratives' streams (decision 0099)."""
    (m1,) = write(store, events.stored("/a", "one"))
    write(store, _on(events, "C1", ClaimCreated("C1", "One.", "plan", about=(m1,))))
    write(
        store,
        _on(events, "C1", ClaimEvidenceAdded("C1", "C1-1", "supports", memory_id=m1)),
        _on(events, "C1", ClaimAdopted("C1")),
    )
    types = ["ClaimCreated", "ClaimAdopted"]
    got = store.claims.events_of_types(types, limit=10)
    assert [(e.stream_id, e.type, e.reason) for e in got] == [
        ("claim:C1", "ClaimAdopted", "why"),
        ("claim:C1", "ClaimCreated", "why"),
    ]
    assert [e.type for e in store.claims.events_of_types(types, limit=1)] == ["ClaimAdopted"]
    below = store.claims.events_of_types(types, limit=10, before=got[0].position)
    assert [e.type for e in below] == ["ClaimCreated"]
    assert store.claims.events_of_types([], limit=10) == []


def test_the_claims_citing_a_memory_newest_first(store: Store, events: Events) -> None:
    """The fact page's read of the claims on one fact: about it or citing it as evidence,
    a retracted citation too, the newest first, at most ``limit``."""
    (m1, m2) = write(store, events.stored("/a", "one"), events.stored("/b", "two"))
    write(store, _on(events, "C1", ClaimCreated("C1", "One.", "plan", about=(m1,))))
    write(store, _on(events, "C2", ClaimCreated("C2", "Two.", "observation", about=(m2,))))
    cited = ClaimEvidenceAdded("C3", "C3-1", "supports", memory_id=m1)
    write(store, _on(events, "C3", ClaimCreated("C3", "Three.", "plan")), _on(events, "C3", cited))
    assert [r.claim_id for r in store.claims.claims_citing(m1)] == ["C3", "C1"]
    assert [r.claim_id for r in store.claims.claims_citing(m1, limit=1)] == ["C3"]
    assert [r.claim_id for r in store.claims.claims_citing(m2)] == ["C2"]
