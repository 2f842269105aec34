"""Keyword search on PostgreSQL ranks from ``fact_terms`` alone and filters the ranked
window (decision 0121): the same results as filtering every match first; migration
``pg_0009_fact_terms_length`` fills each posting's document length in an older database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from contract_helpers import Events, scope, write

from embornal import FixedClock
from embornal.domain.recall import keyword_bound
from embornal.storage.factory import open_store
from embornal.storage.postgres import keyword
from embornal.storage.postgres import migrations as pg_migrations
from pg_server import PgServer

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.postgresql

PUBLIC = scope(("allow", "path:/public/*"))
NEW = "pg_0009_fact_terms_length"


@pytest.fixture
def blank_url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.blank_database()
    yield pg_server.url(name)
    pg_server.drop(name)


def test_the_ranked_window_gives_what_filtering_every_match_gives(
    pg_url: str, clock: FixedClock, events: Events, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(pg_url, clock)
    try:
        stored = [
            events.stored(
                "/public/k" if i % 3 else "/private/k",
                " ".join(["okapi"] * (1 + i % 4) + ["word"] * (i % 7) + ["zebra"] * (i % 2)),
            )
            for i in range(40)
        ]
        ids = write(store, *stored)
        write(store, *(events.forgotten(f) for f in ids[:12:2]))
        write(store, events.stored("/public/k", "okapi okapi zebra", supersedes=ids[1]))

        def searches() -> list[list[tuple[str, float]]]:
            return [
                [(f.id, round(r, 9)) for f, r in found]
                for found in (
                    store.keyword_search(["okapi"], 5),
                    store.keyword_search(["okapi", "zebra"], 7, PUBLIC),
                    store.keyword_search(["zebra"], 10, PUBLIC, under="/public/k"),
                    store.keyword_search(["okapi"], 50, include_superseded=True),
                )
            ]

        with monkeypatch.context() as m:  # a one-row window, widened step by step
            m.setattr(keyword, "FIRST_WINDOW", 1)
            windowed = searches()
        with monkeypatch.context() as m:  # no window: every match filtered, then ranked
            m.setattr(keyword, "FIRST_WINDOW", 1)
            m.setattr(keyword, "MAX_WINDOW", 1)
            exact = searches()
        assert windowed == exact == searches()
        assert [len(found) for found in exact] == [5, 7, 10, 35]
    finally:
        store.close()


def test_pg_0009_fills_the_document_lengths_of_an_older_database(
    blank_url: str, clock: FixedClock, events: Events, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tuple(m for m in pg_migrations.MIGRATIONS if m.name != NEW)
    with monkeypatch.context() as m, keyword.lengths(False):  # the code before pg_0009
        m.setattr(pg_migrations, "MIGRATIONS", before)
        old = open_store(blank_url, clock)
        short, long = write(
            old,
            events.stored("/p", "quokka"),
            events.stored("/p", "a quokka among many words of other kinds"),
        )
        old.close()
    store = open_store(blank_url, clock)
    try:
        assert store.migrations_applied == [NEW]
        assert [f.id for f, _ in store.keyword_search(["quokka"], 10)] == [short, long]
        assert store.verify() == []
        with psycopg.connect(blank_url) as conn:
            bad = conn.execute(
                "SELECT count(*) FROM fact_terms t JOIN facts f USING (seq) "
                "WHERE t.dl <> f.term_count"
            ).fetchone()
            assert bad is not None and bad[0] == 0
    finally:
        store.close()


def test_a_heavy_term_is_read_over_the_newest_rows_and_falls_back_to_exact(
    pg_url: str, clock: FixedClock, events: Events, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(pg_url, clock)
    try:
        ids = write(store, *(events.stored("/k", f"okapi note {i}") for i in range(30)))
        monkeypatch.setattr(keyword_bound, "HEAVY_DF", 10)
        monkeypatch.setattr(keyword_bound, "WINDOW_POSTINGS", 6)
        few = [f.id for f, _ in store.keyword_search(["okapi"], 3)]
        assert few == ids[::-1][:3]  # equal scores: the newest, all inside the window
        every = [f.id for f, _ in store.keyword_search(["okapi"], 50)]
        assert every == ids[::-1]  # the window held too few: ranked exactly
    finally:
        store.close()
