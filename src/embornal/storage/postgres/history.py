"""Time travel's history tables on PostgreSQL (decisions 0041, 0100): written with each
event by SQLite's own code (:func:`embornal.storage.common.history.after`, its SQL through the
dialect), and filled in from the log by migration ``pg_0008_history``.

A database migrated before ``pg_0008`` has no history tables: while its earlier migrations
run (the guide's events of ``pg_0003`` on a new database), :func:`project` writes nothing
(:func:`projecting`), and ``pg_0008`` fills the history of every event before it in by a
replay in a savepoint, keeping only the history rows it made (as ``verify`` replays)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time
from embornal.storage.common import history
from embornal.storage.postgres.db import Conn, Dialect, rows

if TYPE_CHECKING:
    from embornal.domain.events import DomainEvent, Event

__all__ = ["MIGRATION", "fill_in", "first_rows", "project", "projecting", "resume"]

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


_WAITING = "unnest(?::text[], ?::text[], ?::bigint[]) AS w (fid, at, pos)"


def first_rows(conn: Conn, events: Sequence[Event]) -> None:
    """:func:`project` of a run of plain stores (:mod:`.store_run`): the first version and
    tag rows of every fact just stored, in two statements; a fact that has rows already
    (none, for a fact just stored) gets them as :func:`project` gives them."""
    if not _ON.get():
        return
    dialect = Dialect(conn)
    ids = [e.body.fact_id for e in events]  # type: ignore[attr-defined]
    have = {
        str(r[0])
        for r in rows(
            conn, "SELECT DISTINCT fact_id FROM fact_versions WHERE fact_id = ANY(?)", (ids,)
        )
    }
    fresh = [e for e in events if e.body.fact_id not in have]  # type: ignore[attr-defined]
    waiting = (
        [e.body.fact_id for e in fresh],  # type: ignore[attr-defined]
        [format_time(e.recorded_at) for e in fresh],
        [e.position for e in fresh],
    )
    dialect.execute(
        "INSERT INTO fact_versions (fact_id, valid_from, valid_to, position, state, "
        f"attributes, kind_version, fields) SELECT f.id, w.at, NULL, w.pos, {history.STATE_SQL}, "
        f"f.attributes, f.kind_version, {history.FIELDS_SQL} FROM {_WAITING} JOIN facts f "
        "ON f.id = w.fid",
        waiting,
    )
    dialect.execute(
        "INSERT INTO fact_tag_versions (fact_id, key, valid_from, valid_to, value) "
        f"SELECT t.fact_id, t.key, w.at, NULL, t.value FROM {_WAITING} JOIN fact_tags t "
        "ON t.fact_id = w.fid",
        waiting,
    )
    for e in events:
        if e.body.fact_id in have:  # type: ignore[attr-defined]
            history.after(dialect, e, e.body)


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
