"""Vector search on PostgreSQL reads a pool tied to the candidates asked (decision 0124):
the HNSW search's breadth is that pool, or the database's own ``hnsw.ef_search`` where an
administrator set it higher, and only for the search's transaction."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from embornal import FixedClock
from embornal.storage.factory import open_store
from embornal.storage.postgres import vectors
from pg_server import PgServer

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.postgresql


@pytest.fixture
def blank(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.blank_database()
    yield name
    pg_server.drop(name)


def _breadth(url: str, pool: int) -> tuple[int, str]:
    """The breadth a search of ``pool`` sets, and the setting after its transaction."""
    with psycopg.connect(url) as conn:
        with conn.transaction():
            conn.execute("LOAD 'vector'")
            set_to = vectors.search_breadth(conn, pool)
            inside = conn.execute("SHOW hnsw.ef_search").fetchone()
            assert inside is not None and int(inside[0]) == set_to
        after = conn.execute("SHOW hnsw.ef_search").fetchone()
        assert after is not None
        return set_to, str(after[0])


def test_the_pool_follows_the_candidates_asked() -> None:
    assert vectors.pool_size(50) == 100  # a recall of limit 10 asks 50
    assert vectors.pool_size(5) == vectors.MIN_POOL
    assert vectors.pool_size(10_000) == 1000  # pgvector's largest breadth


def test_the_breadth_is_the_pool_unless_the_database_sets_more(
    pg_server: PgServer, blank: str, clock: FixedClock
) -> None:
    url = pg_server.url(blank)
    store = open_store(url, clock)
    try:
        store.prepare_vectors(8)
    finally:
        store.close()
    assert _breadth(url, 100) == (100, "40")  # pgvector's default, back after the search
    with psycopg.connect(pg_server.url("postgres"), autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {blank} SET hnsw.ef_search = 300")
    assert _breadth(url, 100) == (300, "300")
    assert _breadth(url, 500) == (500, "300")
