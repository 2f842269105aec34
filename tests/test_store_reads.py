"""Which connection a read takes: the opening thread reads through the write connection
when it is free, and never waits for it; other threads read through their own."""

from __future__ import annotations

import threading
from pathlib import Path

from embornal import FixedClock, Memory
from embornal.storage.sqlite.store import SqliteStore


def test_the_opening_thread_reads_through_a_free_write_connection(
    db_path: Path, clock: FixedClock
) -> None:
    store = SqliteStore.open(db_path, clock)
    try:
        store.doc_count()
        # No reader connection was needed: the read went through the write connection.
        assert store._readers == []
    finally:
        store.close()


def test_a_read_does_not_wait_while_another_thread_writes(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        fact = mem.store("/notes", "the heron nests by the lake")
        store = mem._store
        inside, release = threading.Event(), threading.Event()

        def hold_the_write_connection() -> None:
            with store.transaction("holding"):
                inside.set()
                release.wait(30)

        writer = threading.Thread(target=hold_the_write_connection)
        writer.start()
        try:
            assert inside.wait(5)
            # The write lock is taken: this read must use a reader connection, not wait.
            hits = mem.recall("heron", reinforce=False)
            assert writer.is_alive()  # the recall did not wait for the write to end
            assert [h.fact.id for h in hits] == [fact.id]
            assert len(store._readers) == 1
        finally:
            release.set()
            writer.join(30)
        assert not writer.is_alive()


def test_other_threads_read_through_their_own_connections(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        fact = mem.store("/notes", "the heron nests by the lake")
        found: list[list[str]] = []

        def read() -> None:
            found.append([h.fact.id for h in mem.recall("heron", reinforce=False)])

        workers = [threading.Thread(target=read) for _ in range(3)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(10)
        assert found == [[fact.id]] * 3
        assert len(mem._store._readers) == 3


def test_a_write_from_another_memory_is_seen_by_the_next_read(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as first, Memory.open(db_path, clock=clock) as other:
        assert first.recall("heron", reinforce=False) == []
        fact = other.store("/notes", "the heron nests by the lake")
        assert [h.fact.id for h in first.recall("heron", reinforce=False)] == [fact.id]


def test_a_recall_of_the_opening_thread_opens_no_reader(db_path: Path, clock: FixedClock) -> None:
    """A recall reads its hits' neighbours on their paths too: through the free write
    connection, so a short command opens the database once (a second connection reads the
    schema again)."""
    with Memory.open(db_path, clock=clock) as mem:
        first = mem.store("/notes", "the heron nests by the lake")
        second = mem.store("/notes", "the heron fishes at dawn")
        hits = mem.recall("heron")
        assert {h.fact.id for h in hits} == {first.id, second.id}
        assert mem._store._readers == []
