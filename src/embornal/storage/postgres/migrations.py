"""PostgreSQL's migrations: named, forward-only, each in its own transaction, recorded in
``migrations`` — the discipline of :mod:`embornal.storage.sqlite.migrations`, with this backend's
own list (its numbers are not SQLite's). ``schema`` ones run SQL files of ``sql/``;
``data`` ones append events (the guide, the default rules). An advisory lock lets one
process migrate at a time (two servers opening one database)."""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.clock import Clock, format_time
from embornal.domain.recall.text import TOKENIZER_VERSION
from embornal.errors import EmbornalError
from embornal.storage.postgres.db import MIGRATION_LOCK, Conn, DriverError, execute
from embornal.storage.postgres.history import MIGRATION as HISTORY
from embornal.storage.postgres.history import projecting, resume
from embornal.storage.postgres.keyword import LENGTHS, lengths, writes_lengths
from embornal.storage.sqlite.migrations import Migration, failing_as_migration

__all__ = ["MIGRATIONS", "applied", "migrate"]


def _sql(name: str) -> Callable[[Conn, Clock], None]:
    def run(conn: Conn, clock: Clock) -> None:
        from importlib import resources

        text = resources.files("embornal.storage.postgres").joinpath(f"sql/{name}.sql")
        conn.execute(text.read_text("utf-8"))  # no parameters: the whole script at once

    return run


def _meta(conn: Conn, clock: Clock) -> None:
    for key, value in (
        ("created_at", format_time(clock.now())),
        ("fts_tokenizer", TOKENIZER_VERSION),
    ):
        execute(
            conn,
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            (key, value),
        )


def _seed(conn: Conn, clock: Clock) -> None:
    from embornal.storage.common.guide import guide_events
    from embornal.storage.postgres.eventlog import append
    from embornal.storage.sqlite.migrations import default_policy_events

    append(conn, guide_events(clock))
    append(conn, default_policy_events(clock))


def _anchor_guide(conn: Conn, clock: Clock) -> None:
    """The guide under ``/memory`` pinned and permanent, through the events that do it
    (decision 0154), in a new memory as in an older one."""
    from embornal.storage.common import guide as G
    from embornal.storage.postgres.eventlog import append

    current = execute(conn, G.CURRENT, (G.GUIDE_PATH,)).fetchall()
    append(conn, G.rewrite_events(clock, [(r[0], r[1]) for r in current]))
    rows = execute(conn, G.UNANCHORED, (G.GUIDE_PATH,)).fetchall()
    append(conn, G.anchor_events(clock, [G.guide_fact(*r) for r in rows]))


def _history(conn: Conn, clock: Clock) -> None:
    """The history tables, and the history of the log before them (:mod:`.history`)."""
    from embornal.storage.postgres.admin import replay
    from embornal.storage.postgres.history import fill_in

    _sql("0008_history")(conn, clock)
    fill_in(conn, replay)


MIGRATIONS: tuple[Migration[Conn], ...] = (
    Migration("pg_0001_initial", "schema", _sql("0001_initial")),
    Migration("pg_0002_meta", "schema", _meta),
    Migration("pg_0003_guide_and_default_policies", "data", _seed),
    Migration("pg_0004_canon_frames", "schema", _sql("0002_canon_frames")),
    Migration("pg_0005_claims", "schema", _sql("0003_claims")),
    Migration("pg_0006_history_context", "schema", _sql("0005_history_context")),
    Migration("pg_0007_narratives", "schema", _sql("0006_narratives")),
    Migration(HISTORY, "schema", _history),
    Migration(LENGTHS, "schema", _sql("0009_fact_terms_length")),
    Migration("pg_0010_token_actor_kind", "schema", _sql("0010_token_actor_kind")),
    Migration("pg_0011_guide_anchors", "data", _anchor_guide),
    Migration("pg_0012_capture_material", "schema", _sql("0012_capture_material")),
)


def applied(conn: Conn) -> list[str]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL, "
        "n BIGINT GENERATED ALWAYS AS IDENTITY)"
    )
    return [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY n")]


def migrate(conn: Conn, clock: Clock, *, seed: bool = True) -> list[str]:
    """Apply the pending migrations in order; return their names. ``seed=False`` on a new
    database records the data migrations without running them (an import brings its log)."""
    ran: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        done = set(applied(conn))
    new = not done
    # no history tables to write before pg_0008, no posting lengths before pg_0009
    with projecting(HISTORY in done), lengths(LENGTHS in done):
        _run(conn, clock, done, ran, seed=seed or not new)
    return ran


def _run(conn: Conn, clock: Clock, done: set[str], ran: list[str], *, seed: bool) -> None:
    for m in MIGRATIONS:
        if m.name in done:
            continue
        with failing_as_migration(m.name, DriverError, EmbornalError), conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if execute(conn, "SELECT 1 FROM migrations WHERE name = ?", (m.name,)).fetchone():
                if m.name == HISTORY:
                    resume()
                if m.name == LENGTHS:
                    writes_lengths(True)
                continue  # another process applied it while we waited
            if m.kind == "schema" or seed:
                m.run(conn, clock)
            execute(
                conn,
                "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                (m.name, format_time(clock.now())),
            )
            if m.name == LENGTHS:
                writes_lengths(True)
        ran.append(m.name)
