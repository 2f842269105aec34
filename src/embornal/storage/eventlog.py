"""Appending to and reading the event log.

``append`` must run inside :func:`embornal.storage.connect.atomic`: it writes
the events and applies their projections in that one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from embornal.domain.clock import format_time
from embornal.domain.events import EVENTS, REDACTED_KEY, REDACTED_REASON, Event, NewEvent
from embornal.errors import ConcurrencyError
from embornal.storage import projector, store_run
from embornal.storage.connect import Connection
from embornal.storage.event_rows import event_columns, row_to_event

__all__ = [
    "append",
    "read_all",
    "read_stream",
    "recall_times",
    "redact_reasons",
    "redact_rows",
    "redact_stream",
    "row_to_event",
]

_COLUMNS = event_columns()


def append(conn: Connection, new_events: Sequence[NewEvent]) -> list[Event]:
    """Append events (inside a transaction) and project each one."""
    with projector.batch(conn):
        return _append(conn, new_events)


#: One encoder for every payload (``json.dumps`` with options builds one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True)
_INSERT = (
    "INSERT INTO events (position, stream_id, version, type, schema_version, payload, actor, "
    "actor_kind, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _append(conn: Connection, new_events: Sequence[NewEvent]) -> list[Event]:
    """Each event at the next position and its stream's next version, projected in log
    order; a run of plain stores is written and projected together (:mod:`store_run`)."""
    out: list[Event] = []
    if len({ne.stream_id for ne in new_events}) == 1:  # one stream: one read for both
        next_version, base = _next_of_one(conn, new_events[0].stream_id)
    else:
        next_version, base = _next_versions(conn, new_events), None
    i = 0
    while i < len(new_events):
        j = i + 1
        if store_run.plain_store(new_events[i]):
            while j < len(new_events) and store_run.plain_store(new_events[j]):
                j += 1
        written = _insert(conn, new_events[i:j], next_version, base)
        base = None  # the next run's first position: after this run's rows
        if j - i > 1:
            store_run.project(conn, written)
        else:
            projector.apply(conn, written[0])
        out.extend(written)
        i = j
    return out


def _next_versions(conn: Connection, new_events: Sequence[NewEvent]) -> dict[str, int]:
    """The next version of every stream the events name: one read for all of them."""
    streams = sorted({ne.stream_id for ne in new_events})
    found = {
        str(r[0]): int(r[1])
        for r in conn.execute(
            "SELECT stream_id, max(version) FROM events WHERE stream_id IN "
            "(SELECT value FROM json_each(?)) GROUP BY stream_id",
            (json.dumps(streams),),
        )
    }
    return {s: found.get(s, 0) + 1 for s in streams}


#: The last position the log gave (its AUTOINCREMENT's, or the highest row's).
_LAST_POSITION = (
    "max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), "
    "coalesce((SELECT max(position) FROM events), 0))"
)


def _next_of_one(conn: Connection, stream_id: str) -> tuple[dict[str, int], int]:
    """The next version of one stream and the last position, in one read (an append of
    one stream, as every single write is)."""
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
    rows: list[tuple[Any, ...]] = []
    out: list[Event] = []
    for k, ne in enumerate(new_events, base + 1):
        version = next_version[ne.stream_id]
        if ne.expected_version is not None and ne.expected_version != version - 1:
            raise ConcurrencyError(
                f"stream {ne.stream_id} is at version {version - 1}, expected {ne.expected_version}"
            )
        next_version[ne.stream_id] = version + 1
        payload = EVENTS.to_payload(ne.body)
        rows.append(
            (
                k,
                ne.stream_id,
                version,
                ne.type,
                ne.schema_version,
                _ENCODER.encode(payload),
                ne.actor,
                ne.actor_kind.value,
                ne.reason,
                format_time(ne.recorded_at),
            )
        )
        out.append(
            Event(
                position=k,
                stream_id=ne.stream_id,
                version=version,
                type=ne.type,
                payload=payload,
                actor=ne.actor,
                actor_kind=ne.actor_kind.value,
                recorded_at=ne.recorded_at,
                reason=ne.reason,
                schema_version=ne.schema_version,
                known_body=ne.body,
            )
        )
    conn.executemany(_INSERT, rows)
    return out


def read_stream(conn: Connection, stream_id: str) -> list[Event]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE stream_id = ? ORDER BY version", (stream_id,)
    ).fetchall()
    return [row_to_event(r) for r in rows]


def recall_times(conn: Connection, fact_id: str) -> list[datetime]:
    """When each recall that returned ``fact_id`` happened, in log order: the
    ``facts_recalled`` events after the fact's first event (through the index on type and
    position) whose payload names it, each checked on its decoded body."""
    from embornal.domain.events import EventType, FactsRecalled

    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE type = ? AND position > "
        "(SELECT min(position) FROM events WHERE stream_id = ?) "
        "AND instr(payload, ?) > 0 ORDER BY position",
        (EventType.FACTS_RECALLED.value, fact_id, fact_id),
    ).fetchall()
    out: list[datetime] = []
    for r in rows:
        body = row_to_event(r).body
        if isinstance(body, FactsRecalled) and fact_id in body.fact_ids:
            out.append(body.at)
    return out


def read_all(
    conn: Connection, *, after: int = 0, until: int | None = None, batch: int = 1000
) -> Iterator[Event]:
    """Every event in log order (positions above ``after``, up to ``until``), in batches."""
    last = after
    bound = "" if until is None else f" AND position <= {int(until)}"
    while True:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE position > ?{bound} ORDER BY position LIMIT ?",
            (last, batch),
        ).fetchall()
        if not rows:
            return
        for r in rows:
            yield row_to_event(r)
        last = int(rows[-1]["position"])


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
