"""The event store and the unit of work: positions, versions, expected versions, rollback."""

from __future__ import annotations

import pytest
from contract_helpers import Events, write

from embornal.errors import ConcurrencyError, Conflict, InvalidInput
from embornal.storage.contract import store as contract
from embornal.storage.contract.store import Store


@pytest.mark.parametrize(
    "protocol",
    [
        contract.UnitOfWork,
        contract.EventStore,
        contract.FactReads,
        contract.PathReads,
        contract.KeywordSearch,
        contract.VectorSearch,
        contract.VectorStore,
        contract.AccessStore,
        contract.Admin,
        contract.Store,
    ],
)
def test_the_store_is_each_protocol(store: Store, protocol: type) -> None:
    assert isinstance(store, protocol)


@pytest.mark.parametrize(
    ("part", "protocol"),
    [
        ("conflicts", contract.ConflictReads),
        ("proposals", contract.ProposalReads),
        ("canon", contract.CanonReads),
        ("timeline", contract.TimelineReads),
        ("narratives", contract.NarrativeReads),
        ("claims", contract.ClaimReads),
        ("listing", contract.ListingReads),
        ("links", contract.GraphReads),
        ("protocol", contract.HistoryQueries),
        ("portability", contract.Portability),
    ],
)
def test_each_part_of_the_store_is_its_protocol(store: Store, part: str, protocol: type) -> None:
    assert isinstance(getattr(store, part), protocol)


def test_append_assigns_positions_and_versions(store: Store, events: Events) -> None:
    fid = events.new_id()
    with store.transaction() as tx:
        got = store.append(tx, [events.stored("/a", "one", fact_id=fid), events.forgotten(fid)])
    assert [e.version for e in got] == [1, 2]
    assert got[1].position == got[0].position + 1
    assert [e.stream_id for e in got] == [fid, fid]


def test_versions_count_per_stream_and_positions_across_transactions(
    store: Store, events: Events
) -> None:
    a, b = events.new_id(), events.new_id()
    with store.transaction() as tx:
        first = store.append(tx, [events.stored("/a", "one", fact_id=a)])
    with store.transaction() as tx:
        second = store.append(tx, [events.stored("/b", "two", fact_id=b), events.forgotten(a)])
    assert [(e.stream_id, e.version) for e in second] == [(b, 1), (a, 2)]
    positions = [e.position for e in first + second]
    assert positions == sorted(positions) and len(set(positions)) == 3


def test_append_at_the_expected_version(store: Store, events: Events) -> None:
    fid = events.new_id()
    with store.transaction() as tx:
        store.append(tx, [events.stored("/a", "one", fact_id=fid)], expected_version=0)
    with store.transaction() as tx:
        (e,) = store.append(tx, [events.forgotten(fid)], expected_version=1)
    assert e.version == 2


def test_an_expected_version_mismatch_conflicts_and_writes_nothing(
    store: Store, events: Events
) -> None:
    fid = events.new_id()
    write(store, events.stored("/a", "the original words", fact_id=fid))
    before = list(store.read_all())
    with pytest.raises(ConcurrencyError) as caught, store.transaction() as tx:
        store.append(tx, [events.forgotten(fid), events.forgotten(fid)], expected_version=0)
    assert isinstance(caught.value, Conflict)
    assert caught.value.hint  # says what to do next
    assert list(store.read_all()) == before
    fact = store.get_fact(fid)
    assert fact is not None and fact.deleted_at is None


def test_a_conflict_later_in_the_unit_of_work_undoes_the_earlier_appends(
    store: Store, events: Events
) -> None:
    fid, other = events.new_id(), events.new_id()
    write(store, events.stored("/a", "one", fact_id=fid))
    with pytest.raises(ConcurrencyError), store.transaction() as tx:
        store.append(tx, [events.stored("/b", "two", fact_id=other)])
        store.append(tx, [events.forgotten(fid)], expected_version=5)
    assert store.get_fact(other) is None
    assert store.read_stream(other) == []


def test_expected_version_belongs_to_one_stream(store: Store, events: Events) -> None:
    with pytest.raises(InvalidInput), store.transaction() as tx:
        store.append(
            tx, [events.stored("/a", "one"), events.stored("/b", "two")], expected_version=0
        )


def test_a_failing_unit_of_work_rolls_back_events_and_projections(
    store: Store, events: Events
) -> None:
    fid = events.new_id()
    before = list(store.read_all())
    docs = store.doc_count()
    with pytest.raises(RuntimeError), store.transaction() as tx:
        store.append(tx, [events.stored("/rolled/back", "a quetzalcoatl passed", fact_id=fid)])
        assert store.get_fact(fid) is not None  # the unit of work reads its own writes
        raise RuntimeError("the caller fails")
    assert list(store.read_all()) == before
    assert store.get_fact(fid) is None
    assert store.read_stream(fid) == []
    assert store.subtree("/rolled") == []
    assert store.keyword_search(["quetzalcoatl"], 10) == []
    assert store.doc_count() == docs


def test_read_stream_is_in_version_order(store: Store, events: Events) -> None:
    fid = events.new_id()
    write(store, events.stored("/a", "one", fact_id=fid, reason="why not"))
    write(store, events.forgotten(fid))
    stream = store.read_stream(fid)
    assert [(e.version, e.type) for e in stream] == [(1, "FactStored"), (2, "FactForgotten")]
    assert stream[0].payload["content"] == "one"
    assert stream[0].reason == "why not"
    assert stream[0].actor == "default"
    assert store.stream(fid) == stream
    assert store.read_stream("no-such-stream") == []


def test_read_all_is_in_log_order_and_stops_at_until(store: Store, events: Events) -> None:
    with store.transaction() as tx:
        mine = store.append(tx, [events.stored("/log", f"entry {i}") for i in range(5)])
    every = list(store.read_all())
    assert [e.position for e in every] == sorted(e.position for e in every)
    assert every[-5:] == mine
    cut = mine[2].position
    assert [e.position for e in store.read_all(until=cut)][-1] == cut
    assert list(store.read_all(after=mine[1].position, until=mine[3].position)) == mine[2:4]
    assert list(store.read_all(after=mine[-1].position)) == []
