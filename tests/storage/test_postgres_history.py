"""Time travel on PostgreSQL (decision 0100): migration ``pg_0008_history`` fills in the
history of a database migrated before it, from its log, keeping its projections and
vectors; ``verify`` compares the history tables with a replay as on SQLite; and a purge
leaves no text of the fact in them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from contract_helpers import Events, write

from embornal import FixedClock
from embornal.storage.contract.store import FactVector
from embornal.storage.factory import open_store
from embornal.storage.postgres import history as pg_history
from embornal.storage.postgres import migrations as pg_migrations
from pg_server import PgServer

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.postgresql


@pytest.fixture
def blank_url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.blank_database()
    yield pg_server.url(name)
    pg_server.drop(name)


def test_pg_0008_fills_in_the_history_of_an_older_database(
    blank_url: str, clock: FixedClock, events: Events, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = clock.now()
    before = tuple(m for m in pg_migrations.MIGRATIONS if m.name != pg_history.MIGRATION)
    with monkeypatch.context() as m, pg_history.projecting(False):  # the code before 0008
        m.setattr(pg_migrations, "MIGRATIONS", before)
        old = open_store(blank_url, clock)
        (fid,) = write(old, events.stored("/p", "alpha", tags=[("team", "x")]))
        old.prepare_vectors(4)
        with old.transaction() as tx:
            old.write_vectors(tx, [FactVector(fid, b"\x00\x00\x80?" * 4)], model="fake")
        clock.advance(days=1)
        (new,) = write(old, events.stored("/p", "beta", supersedes=fid))
        old.close()
    store = open_store(blank_url, clock)
    try:
        assert store.migrations_applied == [pg_history.MIGRATION]
        then = store.as_of(start + timedelta(hours=1))
        fact = then.get_fact(fid)
        assert fact is not None and fact.state == "active" and fact.content == "alpha"
        assert ("team", "x") in [(t.key, t.value) for t in fact.tags]
        assert [f.id for f in then.facts_at("/p")] == [fid]
        assert [f.id for f in store.as_of(clock.now()).facts_at("/p")] == [new]
        assert store.verify() == []
        with psycopg.connect(blank_url) as conn:  # alpha's vector kept: not made again
            kept = conn.execute("SELECT f.id FROM fact_vectors v JOIN facts f USING (seq)")
            assert [r[0] for r in kept] == [fid]
    finally:
        store.close()


def test_verify_sees_a_history_row_that_strays_from_the_log(
    pg_url: str, clock: FixedClock, events: Events
) -> None:
    store = open_store(pg_url, clock)
    try:
        (fid,) = write(store, events.stored("/p", "alpha"))
        assert store.verify() == []
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE fact_versions SET state = 'forgotten' WHERE fact_id = %s", (fid,))
        (problem,) = store.verify()
        assert problem.startswith("fact_versions:")
        store.rebuild()
        assert store.verify() == []
    finally:
        store.close()


def test_a_purge_leaves_no_text_in_the_history(
    pg_url: str, clock: FixedClock, events: Events
) -> None:
    store = open_store(pg_url, clock)
    try:
        (fid,) = write(store, events.stored("/p", "a secret", tags=[("code", "4-8-15-16")]))
        clock.advance(days=1)
        with store.transaction() as tx:
            (purge,) = store.append(tx, [events.purged(fid)])
            store.redact_stream(tx, fid, purge.position)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            held = conn.execute(
                "SELECT string_agg(v.attributes || ' ' || v.fields, ' ') FROM fact_versions v "
                "WHERE fact_id = %s",
                (fid,),
            ).fetchone()
            tags = conn.execute(
                "SELECT key FROM fact_tag_versions WHERE fact_id = %s", (fid,)
            ).fetchall()
        assert held is not None and "4-8-15-16" not in str(held[0])
        assert [t[0] for t in tags] == ["owner"]
        assert store.as_of(clock.now() - timedelta(hours=12)).get_fact(fid) is None
        assert store.verify() == []
    finally:
        store.close()


def test_verify_covers_every_projection_sqlite_verify_does() -> None:
    """The same projections, the keyword index by its own tables (FTS5's vocabulary on
    SQLite; the term rows and statistics here)."""
    from embornal.storage.postgres.admin import PROJECTION_QUERIES as PG
    from embornal.storage.sqlite.verify import PROJECTION_QUERIES as SQLITE

    assert set(SQLITE) - set(PG) == {"facts_fts"}
    assert set(PG) - set(SQLITE) == {"fact_terms", "term_stats"}
