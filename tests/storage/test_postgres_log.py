"""PostgreSQL's own guarantees: the guard trigger keeps the log append-only, two writers of
one stream at one expected version cannot both append, verify sees a projection that
strays from the log, and a SQLite memory's log restored into PostgreSQL is the same memory."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from contract_helpers import Events, write

from embornal import FixedClock
from embornal.errors import ConcurrencyError
from embornal.storage.contract.store import Store
from embornal.storage.factory import open_store
from pg_server import PgServer

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.postgresql


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.fresh_database()
    yield pg_server.url(name)
    pg_server.drop(name)


@pytest.fixture
def pg_store(url: str, clock: FixedClock) -> Iterator[Store]:
    opened = open_store(url, clock)
    yield opened
    opened.close()


def test_the_log_refuses_update_delete_and_truncate(
    pg_store: Store, url: str, events: Events
) -> None:
    (fid,) = write(pg_store, events.stored("/a", "kept as written"))
    with psycopg.connect(url, autocommit=True) as conn:
        for sql in (
            "UPDATE events SET payload = '{}' WHERE stream_id = %s",
            "DELETE FROM events WHERE stream_id = %s",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(sql, (fid,))
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("TRUNCATE events CASCADE")
    assert pg_store.read_stream(fid)[0].payload["content"] == "kept as written"


def test_a_purge_redacts_through_the_guard(pg_store: Store, events: Events) -> None:
    (fid,) = write(pg_store, events.stored("/a", "a secret", reason="typed the secret"))
    with pg_store.transaction() as tx:
        (purge,) = pg_store.append(tx, [events.purged(fid)])
        assert pg_store.redact_stream(tx, fid, purge.position) == 1
    first = pg_store.read_stream(fid)[0]
    assert first.redacted and "a secret" not in str(first.payload)
    assert first.reason != "typed the secret"
    assert set(pg_store.portability.redactions()) == {first.position}


def test_two_writers_at_one_expected_version_one_wins(
    url: str, clock: FixedClock, events: Events
) -> None:
    first, second = open_store(url, clock), open_store(url, clock)
    try:
        fid = events.new_id()
        write(first, events.stored("/race", "one", fact_id=fid))
        outcome: list[BaseException | None] = []
        inside = threading.Event()

        def other_writer() -> None:
            inside.wait()
            try:
                with second.transaction() as tx:
                    second.append(tx, [events.forgotten(fid)], expected_version=1)
                outcome.append(None)
            except ConcurrencyError as e:
                outcome.append(e)

        racer = threading.Thread(target=other_writer)
        racer.start()
        with first.transaction() as tx:
            first.append(tx, [events.forgotten(fid)], expected_version=1)
            inside.set()  # the other writer starts now, and waits for this one to commit
        racer.join()
        assert len(outcome) == 1 and isinstance(outcome[0], ConcurrencyError)
        assert [e.version for e in first.read_stream(fid)] == [1, 2]
    finally:
        first.close()
        second.close()


def test_the_unique_version_holds_below_the_store(
    pg_store: Store, url: str, events: Events
) -> None:
    """Two connections that both skip the store's lock still cannot write one version."""
    (fid,) = write(pg_store, events.stored("/a", "one"))
    insert = (
        "INSERT INTO events (stream_id, version, type, payload, actor, actor_kind, recorded_at) "
        "VALUES (%s, 2, 'FactForgotten', '{}', 'x', 'person', 't')"
    )
    with psycopg.connect(url) as a, psycopg.connect(url) as b:
        a.execute(insert, (fid,))
        a.commit()
        with pytest.raises(psycopg.errors.UniqueViolation, match="events_stream_version"):
            b.execute(insert, (fid,))


def test_verify_finds_a_projection_that_strays_from_the_log(
    pg_store: Store, url: str, events: Events
) -> None:
    (fid,) = write(pg_store, events.stored("/v", "as the log says"))
    assert pg_store.verify() == []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE facts SET content = 'not as the log says' WHERE id = %s", (fid,))
    (difference,) = pg_store.verify()
    assert difference.startswith("facts:")
    fact = pg_store.get_fact(fid)
    assert fact is not None and fact.content == "not as the log says"  # verify wrote nothing
    pg_store.rebuild()
    assert pg_store.verify() == []


def test_a_sqlite_log_restored_into_postgresql_is_the_same_memory(
    pg_server: PgServer, tmp_path: Path, clock: FixedClock, events: Events
) -> None:
    source = open_store(tmp_path / "source.db", clock)
    name = pg_server.blank_database()
    target = open_store(pg_server.url(name), clock, seed=False)
    try:
        (kept,) = write(source, events.stored("/r", "the pangolin stays", tags=[("k", "v")]))
        (gone,) = write(source, events.stored("/r", "a pangolin secret"))
        with source.transaction() as tx:
            (purge,) = source.append(tx, [events.purged(gone)])
            source.redact_stream(tx, gone, purge.position)
        assert target.portability.event_count() == 0
        log = list(source.read_all())
        marks = source.portability.redactions()
        assert target.portability.restore_log((e, marks.get(e.position)) for e in log) == len(log)
        assert list(target.read_all()) == log
        assert target.portability.redactions() == marks
        assert target.verify() == []
        assert list(target.portability.every_fact()) == list(source.portability.every_fact())
        # Ranked alike, to the same BM25 values, as the log gives them (a replayed SQLite
        # memory: a purged fact counts as a document of no terms on both).
        source.rebuild()
        on_pg, on_sqlite = (s.keyword_search(["pangolin"], 5) for s in (target, source))
        assert [f for f, _ in on_pg] == [f for f, _ in on_sqlite]
        # the same sums in another order: equal to the last bit or one off
        assert [v for _, v in on_pg] == pytest.approx([v for _, v in on_sqlite], rel=1e-12)
        assert target.get_fact(kept) == source.get_fact(kept)
    finally:
        source.close()
        target.close()
        pg_server.drop(name)


def test_a_log_the_projections_refuse_is_an_invalid_import_and_writes_nothing(
    pg_server: PgServer, tmp_path: Path, clock: FixedClock, events: Events
) -> None:
    """A value out of the projections' range (a tier they do not know) rolls the whole
    restore back as an InvalidImport (exit 2), as on SQLite, not a database error."""
    from dataclasses import replace

    from embornal.domain.events.protocol import MemoryCaptured
    from embornal.errors import InvalidImport

    source = open_store(tmp_path / "source.db", clock)
    name = pg_server.blank_database()
    target = open_store(pg_server.url(name), clock, seed=False)
    try:
        (fact,) = write(source, events.stored("/r", "the pangolin stays"))
        with source.transaction() as tx:
            source.append(
                tx,
                [
                    replace(
                        events.stored("/r", "x"),
                        stream_id=fact,
                        body=MemoryCaptured(fact, tier="archive"),
                        expected_version=None,
                    )
                ],
            )
        log = list(source.read_all())
        bad = log[-1]
        assert bad.type == "MemoryCaptured"
        log[-1] = replace(bad, payload={**bad.payload, "tier": "bogus"})
        with pytest.raises(InvalidImport) as caught:
            target.portability.restore_log((e, None) for e in log)
        assert f"position {bad.position} (MemoryCaptured)" in caught.value.message
        assert target.portability.event_count() == 0
        assert target.portability.restore_log((e, None) for e in source.read_all()) == len(log)
        assert target.verify() == []
    finally:
        source.close()
        target.close()
        pg_server.drop(name)
