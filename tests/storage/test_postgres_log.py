"""PostgreSQL's own guarantees of the log: the guard trigger keeps it append-only, and two
writers of one stream at one expected version cannot both append."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from contract_helpers import Events, write
from pg_server import PgServer

from embornal import FixedClock
from embornal.errors import ConcurrencyError
from embornal.storage.contract import Store
from embornal.storage.factory import open_store

psycopg = pytest.importorskip("psycopg")


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
    assert set(pg_store.redactions()) == {first.position}


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
