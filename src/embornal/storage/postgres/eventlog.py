"""Appending to and reading the event log on PostgreSQL.

``append`` runs in a write transaction (which holds the write lock, so positions follow
commit order); each event gets the next version of its stream, and the unique constraint
on ``(stream_id, version)`` stops a second writer of the same version whatever happens
above it. What both backends share is written once (:mod:`embornal.storage.common.eventlog`, as
decision 0119 wrote the past reads) and run here through the dialect; what is this
backend's is the positions, returned by the identity, and the projector.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime

from embornal.domain.events import Event, NewEvent
from embornal.storage.common import eventlog as eventlog_sql
from embornal.storage.postgres import projector, store_run
from embornal.storage.postgres.db import Conn, Dialect, pg_sql

__all__ = ["append", "read_all", "read_page", "read_stream", "recall_times", "recalls_of"]


def append(conn: Conn, new_events: Sequence[NewEvent]) -> list[Event]:
    """Append events (inside a write transaction) and project each one, in log order; a
    run of plain stores is written and projected together (:mod:`.store_run`, decision
    0111), any other event one at a time."""
    next_version = eventlog_sql.next_versions(Dialect(conn), new_events)
    return eventlog_sql.in_runs(
        new_events,
        lambda run: _insert(conn, run, next_version),
        lambda written: store_run.project(conn, written),
        lambda event: projector.apply(conn, event),
    )


_INSERT = pg_sql(
    "INSERT INTO events (stream_id, version, type, schema_version, payload, actor, "
    "actor_kind, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING position"
)


def _insert(
    conn: Conn, new_events: Sequence[NewEvent], next_version: dict[str, int]
) -> list[Event]:
    """Insert ``new_events`` (not yet projected) in one pipelined ``executemany``, each at
    its stream's next version (checked against its expected version first); the positions
    the identity gives them come back in order."""
    rows = eventlog_sql.event_rows(new_events, next_version)
    with conn.cursor() as cur:
        cur.executemany(_INSERT, [row for row, _, _ in rows], returning=True)
        positions = [int(r[0]) for _ in cur.results() for r in cur.fetchall()]
    assert len(positions) == len(new_events)  # RETURNING gives each row
    return eventlog_sql.written(new_events, rows, positions)


def read_stream(conn: Conn, stream_id: str) -> list[Event]:
    return eventlog_sql.read_stream(Dialect(conn), stream_id)


def recall_times(conn: Conn, fact_id: str) -> list[datetime]:
    """When each recall that returned ``fact_id`` happened, in log order
    (:func:`embornal.storage.common.eventlog.recall_times`)."""
    return eventlog_sql.recall_times(Dialect(conn), fact_id)


def recalls_of(conn: Conn, fact_id: str, *, limit: int) -> list[Event]:
    """The newest recalls that returned ``fact_id``, newest first
    (:func:`embornal.storage.common.eventlog.recalls_of`)."""
    return eventlog_sql.recalls_of(Dialect(conn), fact_id, limit=limit)


def read_page(conn: Conn, *, after: int, until: int | None, limit: int) -> list[Event]:
    """The first ``limit`` events above position ``after`` (up to ``until``), in log order."""
    return eventlog_sql.read_page(Dialect(conn), after=after, until=until, limit=limit)


def read_all(
    conn: Conn, *, after: int = 0, until: int | None = None, batch: int = 1000
) -> Iterator[Event]:
    """Every event in log order (positions above ``after``, up to ``until``), in batches."""
    return eventlog_sql.read_all(Dialect(conn), after=after, until=until, batch=batch)
