"""Time travel's history tables on PostgreSQL (decisions 0041, 0100): written with each
event by SQLite's own code (:func:`embornal.storage.history.after`, its SQL through the
dialect), and filled in from the log by migration ``pg_0008_history``.

A database migrated before ``pg_0008`` has no history tables: while its earlier migrations
run (the guide's events of ``pg_0003`` on a new database), :func:`project` writes nothing
(:func:`projecting`), and ``pg_0008`` fills the history of every event before it in by a
replay in a savepoint, keeping only the history rows it made (as ``verify`` replays)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from embornal.storage import history
from embornal.storage.postgres.db import Conn, Dialect, rows

if TYPE_CHECKING:
    from embornal.domain.events import DomainEvent, Event

__all__ = ["MIGRATION", "fill_in", "project", "projecting", "resume"]

#: The migration that makes the history tables.
MIGRATION = "pg_0008_history"
_ON: ContextVar[bool] = ContextVar("embornal_pg_history", default=True)

#: Each table's rows by natural keys (a path by its text: a replay numbers paths anew).
_SAVED = {
    "fact_versions": "SELECT fact_id, valid_from, valid_to, position, state, attributes, "
    "kind_version, fields FROM fact_versions",
    "fact_signals": "SELECT fact_id, valid_from, valid_to, last_recall_at, recall_count, "
    "stability_days FROM fact_signals",
    "fact_tag_versions": "SELECT fact_id, key, valid_from, valid_to, value FROM fact_tag_versions",
    "path_tag_versions": "SELECT p.path, t.tagger, t.key, t.valid_from, t.valid_to, t.value "
    "FROM path_tag_versions t JOIN paths p ON p.id = t.path_id",
}
_INSERT = {
    "fact_versions": "INSERT INTO fact_versions (fact_id, valid_from, valid_to, position, state, "
    "attributes, kind_version, fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "fact_signals": "INSERT INTO fact_signals (fact_id, valid_from, valid_to, last_recall_at, "
    "recall_count, stability_days) VALUES (?, ?, ?, ?, ?, ?)",
    "fact_tag_versions": "INSERT INTO fact_tag_versions (fact_id, key, valid_from, valid_to, "
    "value) VALUES (?, ?, ?, ?, ?)",
    "path_tag_versions": "INSERT INTO path_tag_versions (path_id, tagger, key, valid_from, "
    "valid_to, value) SELECT id, ?, ?, ?, ?, ? FROM paths WHERE path = ?",
}


@contextmanager
def projecting(on: bool) -> Iterator[None]:
    """Within it, :func:`project` writes the history only when ``on`` (the migrations
    before ``pg_0008`` run with it off; ``pg_0008`` turns it on for the rest)."""
    token = _ON.set(on)
    try:
        yield
    finally:
        _ON.reset(token)


def resume() -> None:
    """From here on (to the end of the caller's :func:`projecting`), write the history:
    ``pg_0008`` has made its tables (in this process, or in another one meanwhile)."""
    _ON.set(True)


def project(conn: Conn, event: Event, body: DomainEvent) -> None:
    """After an event's own projection: the history intervals of what it changed."""
    if _ON.get():
        history.after(Dialect(conn), event, body)


def fill_in(conn: Conn, replay: Callable[[Conn], object]) -> None:
    """``pg_0008``'s data step: the history of the log so far, from a ``replay`` of it in a
    savepoint (rolled back: the projections stay as they are, vectors too), its rows
    written again."""
    import psycopg

    resume()
    if not rows(conn, "SELECT 1 FROM events LIMIT 1"):
        return
    saved: dict[str, list[tuple[Any, ...]]] = {}
    with conn.transaction():
        replay(conn)
        saved = {name: [tuple(r) for r in rows(conn, sql)] for name, sql in _SAVED.items()}
        raise psycopg.Rollback()
    dialect = Dialect(conn)
    for name, found in saved.items():
        if name == "path_tag_versions":  # the path's text last, to find its id
            found = [(*r[1:], r[0]) for r in found]
        dialect.executemany(_INSERT[name], found)
