"""Appending to and reading the event log.

``append`` must run inside :func:`embornal.storage.sqlite.connect.atomic`: it writes
the events and applies their projections in that one transaction. What both backends
share is written once (:mod:`embornal.storage.common.eventlog`, as decision 0119 wrote the
past reads); here is what is SQLite's: the positions, the projector.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime

from embornal.domain.clock import format_time
from embornal.domain.events import EVENTS, REDACTED_KEY, REDACTED_REASON, Event, NewEvent
from embornal.hints import Any
from embornal.storage.common import eventlog as eventlog_sql
from embornal.storage.common import store_run
from embornal.storage.common.event_rows import row_to_event
from embornal.storage.sqlite import projector
from embornal.storage.sqlite.connect import Connection

__all__ = [
    "append",
    "read_all",
    "read_stream",
    "recall_times",
    "recalls_of",
    "redact_reasons",
    "redact_rows",
    "redact_stream",
    "row_to_event",
]


def append(conn: Connection, new_events: Sequence[NewEvent]) -> list[Event]:
    """Append events (inside a transaction) and project each one, in log order; a run of
    plain stores is written and projected together (:mod:`store_run`)."""
    with projector.batch(conn):
        base: list[int | None] = [None]
        if len({ne.stream_id for ne in new_events}) == 1:  # one stream: one read for both
            next_version, base[0] = _next_of_one(conn, new_events[0].stream_id)
        else:
            next_version = eventlog_sql.next_versions(conn, new_events)

        def insert(run: Sequence[NewEvent]) -> list[Event]:
            first, base[0] = base[0], None  # a later run starts after this run's rows
            return _insert(conn, run, next_version, first)

        return eventlog_sql.in_runs(
            new_events,
            insert,
            lambda written: store_run.project(conn, written),
            lambda event: projector.apply(conn, event),
        )


_INSERT = (
    "INSERT INTO events (position, stream_id, version, type, schema_version, payload, actor, "
    "actor_kind, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


#: The last position the log gave (its AUTOINCREMENT's, or the highest row's).
_LAST_POSITION = (
    "max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), "
    "coalesce((SELECT max(position) FROM events), 0))"
)


def _next_of_one(conn: Connection, stream_id: str) -> tuple[dict[str, int], int]:
    """The next version of one stream and the last position, in one read (an append of
    one stream, as every single write is; decision 0150)."""
    row = conn.execute(
        f"SELECT (SELECT max(version) FROM events WHERE stream_id = ?), {_LAST_POSITION}",
        (stream_id,),
    ).fetchone()
    return {stream_id: int(row[0] or 0) + 1}, int(row[1])


def _insert(
    conn: Connection,
    new_events: Sequence[NewEvent],
    next_version: dict[str, int],
    base: int | None = None,
) -> list[Event]:
    """Insert ``new_events`` (not yet projected) at the positions the log's AUTOINCREMENT
    gives next (after ``base``, read here when not given), in one statement, checking each
    expected version."""
    if base is None:
        base = int(conn.execute(f"SELECT {_LAST_POSITION}").fetchone()[0])
    rows = eventlog_sql.event_rows(new_events, next_version)
    positions = range(base + 1, base + 1 + len(rows))
    conn.executemany(_INSERT, [(k, *row) for k, (row, _, _) in zip(positions, rows, strict=True)])
    return eventlog_sql.written(new_events, rows, positions)


def read_stream(conn: Connection, stream_id: str) -> list[Event]:
    return eventlog_sql.read_stream(conn, stream_id)


def recall_times(conn: Connection, fact_id: str) -> list[datetime]:
    """When each recall that returned ``fact_id`` happened, in log order
    (:func:`embornal.storage.common.eventlog.recall_times`)."""
    return eventlog_sql.recall_times(conn, fact_id)


def recalls_of(conn: Connection, fact_id: str, *, limit: int) -> list[Event]:
    """The newest recalls that returned ``fact_id``, newest first
    (:func:`embornal.storage.common.eventlog.recalls_of`)."""
    return eventlog_sql.recalls_of(conn, fact_id, limit=limit)


def read_all(
    conn: Connection, *, after: int = 0, until: int | None = None, batch: int = 1000
) -> Iterator[Event]:
    """Every event in log order (positions above ``after``, up to ``until``), in batches."""
    return eventlog_sql.read_all(conn, after=after, until=until, batch=batch)


def redact_stream(conn: Connection, stream_id: str, purge_position: int, now: datetime) -> int:
    """Erase user text from the events of a purged fact before ``purge_position`` (inside
    the purge's transaction), recording each in ``event_redactions``; return how many.

    Each payload loses the fields its event class declares as text (``TEXT_FIELDS``:
    content, attributes, the tags other than owner); the reason (which a person may have
    typed the secret into) becomes :data:`REDACTED_REASON`. The purge event itself keeps
    its reason.
    """
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason FROM events "
        "WHERE stream_id = ? AND position < ? ORDER BY position",
        (stream_id, purge_position),
    ).fetchall()
    return redact_rows(conn, rows, purge_position, now)


def redact_rows(
    conn: Connection,
    rows: Sequence[Any],
    purge_position: int,
    now: datetime,
    *,
    text: bool = True,
) -> int:
    """:func:`redact_stream` of the given rows (position, type, schema_version, payload,
    reason): each loses its declared text (unless not ``text``) and its reason, recorded;
    return how many."""
    when = format_time(now)
    count = 0
    for row in rows:
        stored = json.loads(row[3])
        payload = EVENTS.redact_payload(row[1], int(row[2]), stored) if text else None
        reason = row[4]
        if reason and reason != REDACTED_REASON:
            reason = REDACTED_REASON
            payload = payload or {**stored, REDACTED_KEY: True}
        if payload is None:
            continue
        conn.execute(
            "INSERT INTO event_redactions (position, purge_position, redacted_at) VALUES (?, ?, ?)",
            (row[0], purge_position, when),
        )
        conn.execute(
            "UPDATE events SET payload = ?, reason = ? WHERE position = ?",
            (json.dumps(payload, ensure_ascii=False, sort_keys=True), reason, row[0]),
        )
        count += 1
    return count


def redact_reasons(
    conn: Connection, rows: Sequence[Any], purge_position: int, now: datetime
) -> int:
    """The reasons of the given rows (as :func:`redact_rows`) become
    :data:`REDACTED_REASON`, their payloads only marked redacted; return how many."""
    return redact_rows(conn, rows, purge_position, now, text=False)
