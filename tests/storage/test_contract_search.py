"""Keyword and vector search: ranked, and never past the read scope."""

from __future__ import annotations

import math

import pytest
from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.domain.recall.text import query_terms
from embornal.errors import VectorWidthMismatch
from embornal.storage.contract.store import FactVector, Store, pack_vector

PUBLIC = scope(("allow", "path:/public/*"))
DIMS = 8


def _unit(*values: float) -> bytes:
    norm = math.sqrt(sum(v * v for v in values))
    return pack_vector([v / norm for v in values])


def test_keyword_search_ranks_the_closer_match_first(store: Store, events: Events) -> None:
    weak, strong = write(
        store,
        events.stored("/k", "the axolotl lives in a lake with many other animals and plants"),
        events.stored("/k", "axolotl axolotl: an axolotl"),
    )
    found = store.keyword_search(["axolotl"], 10)
    assert [f.id for f, _ in found] == [strong, weak]
    assert found[0][1] < found[1][1]  # bm25: lower is better


def test_keyword_search_respects_scope_and_under(store: Store, events: Events) -> None:
    shown, hidden, other = write(
        store,
        events.stored("/public/k", "the narwhal sings"),
        events.stored("/private/k", "the narwhal sings louder"),
        events.stored("/public/elsewhere", "a narwhal elsewhere"),
    )
    assert {f.id for f, _ in store.keyword_search(["narwhal"], 10)} == {shown, hidden, other}
    assert {f.id for f, _ in store.keyword_search(["narwhal"], 10, PUBLIC)} == {shown, other}
    under = store.keyword_search(["narwhal"], 10, PUBLIC, under="/public/k")
    assert [f.id for f, _ in under] == [shown]


def test_keyword_search_leaves_out_forgotten_and_superseded(store: Store, events: Events) -> None:
    gone, old = write(store, events.stored("/k", "okapi one"), events.stored("/k", "okapi two"))
    (new,) = write(store, events.stored("/k", "okapi three", supersedes=old))
    write(store, events.forgotten(gone))
    assert [f.id for f, _ in store.keyword_search(["okapi"], 10)] == [new]
    wide = store.keyword_search(["okapi"], 10, include_superseded=True)
    assert {f.id for f, _ in wide} == {old, new}


def test_term_statistics(store: Store, events: Events) -> None:
    docs = store.doc_count()
    write(store, events.stored("/k", "pangolin scales"), events.stored("/k", "pangolin again"))
    assert store.doc_count() == docs + 2
    pangolin, scales = query_terms("pangolin scales")  # as the index holds them (stemmed)
    assert store.term_df([pangolin, scales]) == {pangolin: 2, scales: 1}
    assert store.term_df([]) == {}


@pytest.fixture
def vstore(store: Store) -> Store:
    if not store.prepare_vectors(DIMS):
        pytest.skip("this backend has no vector support installed")
    return store


def test_vectors_are_written_in_the_unit_of_work_and_searched(
    vstore: Store, events: Events
) -> None:
    near, far = events.stored("/public/v", "near"), events.stored("/public/v", "far")
    with vstore.transaction() as tx:
        vstore.append(tx, [near, far])
        vstore.write_vectors(
            tx,
            [
                FactVector(near.stream_id, _unit(1, 0.1, 0, 0, 0, 0, 0, 0)),
                FactVector(far.stream_id, _unit(0, 0, 1, 0, 0, 0, 0, 0)),
            ],
            model="test-model",
        )
    found = vstore.vector_search(_unit(1, 0, 0, 0, 0, 0, 0, 0), 10)
    assert [f.id for f, _ in found] == [near.stream_id, far.stream_id]
    assert found[0][1] == pytest.approx(1 / math.sqrt(1.01), abs=1e-4)
    assert vstore.vector_model() == "test-model"


def test_vector_search_respects_scope_and_under(vstore: Store, events: Events) -> None:
    shown, hidden = events.stored("/public/v", "shown"), events.stored("/private/v", "hidden")
    with vstore.transaction() as tx:
        vstore.append(tx, [shown, hidden])
        vstore.write_vectors(
            tx,
            [FactVector(e.stream_id, _unit(1, 1, 0, 0, 0, 0, 0, 0)) for e in (shown, hidden)],
            model="test-model",
        )
    query = _unit(1, 1, 0, 0, 0, 0, 0, 0)
    assert [f.id for f, _ in vstore.vector_search(query, 10, PUBLIC)] == [shown.stream_id]
    assert [f.id for f, _ in vstore.vector_search(query, 10, under="/private")] == [
        hidden.stream_id
    ]


def test_vectors_roll_back_with_their_unit_of_work(vstore: Store, events: Events) -> None:
    (fid,) = write(vstore, events.stored("/v", "waits for a vector"))
    with pytest.raises(RuntimeError), vstore.transaction() as tx:
        vstore.write_vectors(tx, [FactVector(fid, _unit(1, 0, 0, 0, 0, 0, 0, 1))], model="m")
        raise RuntimeError("the caller fails")
    assert fid in {fact_id for fact_id, _ in vstore.pending_vectors(1000)}
    assert vstore.vector_search(_unit(1, 0, 0, 0, 0, 0, 0, 1), 10) == []
    assert vstore.vector_model() is None


def test_pending_vectors_and_clearing(vstore: Store, events: Events) -> None:
    (fid,) = write(vstore, events.stored("/v", "a fact without a vector"))
    pending = vstore.pending_vector_count()
    assert (fid, "a fact without a vector") in vstore.pending_vectors(1000)
    with vstore.transaction() as tx:
        vstore.write_vectors(tx, [FactVector(fid, _unit(0, 1, 0, 0, 0, 0, 0, 0))], model="one")
    assert vstore.pending_vector_count() == pending - 1
    assert fid not in {fact_id for fact_id, _ in vstore.pending_vectors(1000)}
    with vstore.transaction() as tx:
        vstore.clear_vectors(tx, model="two")
    assert vstore.vector_model() == "two"
    assert vstore.pending_vector_count() == pending
    assert vstore.vector_search(_unit(0, 1, 0, 0, 0, 0, 0, 0), 10) == []


def test_clearing_at_another_width_makes_the_index_again(vstore: Store, events: Events) -> None:
    (fid,) = write(vstore, events.stored("/v", "embedded at two widths"))
    with vstore.transaction() as tx:
        vstore.write_vectors(tx, [FactVector(fid, _unit(0, 1, 0, 0, 0, 0, 0, 0))], model="one")
    with vstore.transaction() as tx:
        vstore.clear_vectors(tx, model="wide", width=DIMS * 2)
    assert vstore.vector_model() == "wide"
    assert fid in {fact_id for fact_id, _ in vstore.pending_vectors(1000)}
    assert vstore.prepare_vectors(DIMS * 2)  # the new width is the memory's now
    with pytest.raises(VectorWidthMismatch):
        vstore.prepare_vectors(DIMS)
    wide = _unit(0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    with vstore.transaction() as tx:
        vstore.write_vectors(tx, [FactVector(fid, wide)], model="wide")
    assert [f.id for f, _ in vstore.vector_search(wide, 10)] == [fid]


def test_the_vector_width_is_kept(vstore: Store) -> None:
    assert vstore.prepare_vectors(DIMS)  # the same width again: fine
    with pytest.raises(VectorWidthMismatch):
        vstore.prepare_vectors(DIMS * 2)


def test_reads_aside_only_outside_a_write_transaction(
    store: Store, events: Events, clock: FixedClock
) -> None:
    """A search on another thread sees what this thread sees, so hybrid recall may run its
    two parts side by side; inside a write transaction (its writes not yet committed) the
    store says no."""
    from concurrent.futures import ThreadPoolExecutor

    (fact,) = write(store, events.stored("/k", "the quokka smiles"))
    assert store.reads_aside()
    with ThreadPoolExecutor(1) as pool:
        aside = pool.submit(store.keyword_search, ["quokka"], 10).result()
    assert [f.id for f, _ in aside] == [f.id for f, _ in store.keyword_search(["quokka"], 10)]
    assert [f.id for f, _ in aside] == [fact]
    with store.transaction():
        assert not store.reads_aside()
    assert store.reads_aside()
    assert not store.as_of(clock.now()).reads_aside()
