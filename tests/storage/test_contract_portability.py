"""The portability part of the contract: every fact in order, the redaction records, a log
written back at its own positions into an empty store, and the online backup."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.errors import Conflict, InvalidInput
from embornal.storage.contract.store import Redaction, Store
from embornal.storage.factory import open_store


def test_every_fact_in_scope_whatever_its_state(store: Store, events: Events) -> None:
    (a,) = write(store, events.stored("/b", "one", tags=[("team", "x")]))
    (b,) = write(store, events.stored("/a", "two"))
    (c,) = write(store, events.stored("/b", "three", supersedes=a))
    write(store, events.forgotten(b))
    order = [f.id for f in store.portability.every_fact() if f.path != "/memory"]
    assert order == [b, a, c]  # by path, then creation
    assert {f.state for f in store.portability.every_fact() if f.id in (a, b)} == {
        "superseded",
        "forgotten",
    }
    only = scope(("allow", "tag:team=x"))
    assert [f.id for f in store.portability.every_fact(only)] == [a]
    assert store.portability.fact_ids(only) == {a} and {a, b, c} <= store.portability.fact_ids()


def test_a_log_restored_into_an_empty_store(
    store: Store, events: Events, tmp_path: Path, clock: FixedClock
) -> None:
    write(store, events.stored("/r", "kept words"))
    (s,) = write(store, events.stored("/r", "secret words"))
    write(store, events.purged(s))
    with store.transaction() as tx:
        purge = next(e for e in store.read_stream(s) if e.type == "FactPurged")
        store.redact_stream(tx, s, purge.position)
    marks = store.portability.redactions()
    assert marks and all(m.purge_position == purge.position for m in marks.values())
    log = list(store.read_all())
    assert store.portability.last_position() == log[
        -1
    ].position and store.portability.event_count() == len(log)
    with pytest.raises(Conflict):
        store.portability.restore_log([])  # it holds events
    empty = open_store(tmp_path / "empty.db", clock, seed=False)
    try:
        assert empty.portability.event_count() == 0 and empty.portability.last_position() == 0
        assert empty.portability.restore_log((e, marks.get(e.position)) for e in log) == len(log)
        assert [(e.position, e.stream_id, e.version, e.payload) for e in empty.read_all()] == [
            (e.position, e.stream_id, e.version, e.payload) for e in log
        ]
        assert empty.portability.redactions() == marks
        assert empty.verify() == []
        assert [f.id for f in empty.portability.every_fact()] == [
            f.id for f in store.portability.every_fact()
        ]
    finally:
        empty.close()


def test_a_failing_restore_writes_nothing(tmp_path: Path, clock: FixedClock, store: Store) -> None:
    write(store, Events(clock).stored("/r", "words"))
    log = list(store.read_all())

    def entries():  # type: ignore[no-untyped-def]
        yield log[0], None
        raise InvalidInput("line 3: broken")

    empty = open_store(tmp_path / "empty.db", clock, seed=False)
    try:
        with pytest.raises(InvalidInput):
            empty.portability.restore_log(entries())
        assert empty.portability.event_count() == 0
    finally:
        empty.close()


def test_a_backup_is_a_new_file_that_opens_as_the_same_memory(
    store: Store, events: Events, tmp_path: Path, clock: FixedClock
) -> None:
    (a,) = write(store, events.stored("/r", "backed up"))
    target = tmp_path / "copy.db"
    store.portability.backup(str(target))
    with pytest.raises(InvalidInput):
        store.portability.backup(str(target))
    copy = open_store(target, clock)
    try:
        assert copy.get_fact(a) == store.get_fact(a)
        assert copy.verify() == []
    finally:
        copy.close()


def test_redaction_is_a_record(store: Store) -> None:
    assert store.portability.redactions() == {}
    assert Redaction(3, "2026-01-01T00:00:00.000000Z").purge_position == 3


def test_a_snapshot_holds_the_log_as_it_was_when_it_opened(store: Store, events: Events) -> None:
    from embornal.storage.contract.store import FactVector, pack_vector

    (a,) = write(store, events.stored("/s", "before the snapshot"))
    store.prepare_vectors(8)
    with store.transaction() as tx:
        store.write_vectors(tx, [FactVector(a, pack_vector([1.0] * 8))], model="m:8")
    count = store.portability.event_count()
    with store.portability.snapshot() as snap:
        write(store, events.stored("/s", "after it opened"))  # a writer goes on
        assert snap.events == count
        log = list(snap.log())
        assert [e.position for e, _ in log] == [e.position for e in store.read_all()][:count]
        assert snap.vector_model() == (8, "m:8")
        (page,) = list(snap.vectors())
        assert [v.fact_id for v in page] == [a] and page[0].vector == pack_vector([1.0] * 8)
    assert store.portability.event_count() == count + 1
