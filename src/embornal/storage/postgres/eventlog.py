"""Appending to and reading the event log on PostgreSQL.

``append`` runs in a write transaction (which holds the write lock, so positions follow
commit order); each event gets the next version of its stream, and the unique constraint
on ``(stream_id, version)`` stops a second writer of the same version whatever happens
above it. Events are read back with the SQLite log's own row reader
(:func:`embornal.storage.event_rows.row_to_event`): the stored payload, upcast.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from embornal.domain.clock import format_time
from embornal.domain.events import EVENTS, Event, NewEvent
from embornal.errors import ConcurrencyError
from embornal.storage.event_rows import event_columns, row_to_event
from embornal.storage.postgres import projector, store_run
from embornal.storage.postgres.db import Conn, execute, pg_sql
from embornal.storage.store_run import plain_store

__all__ = ["append", "read_all", "read_page", "read_stream", "recall_times"]

_COLUMNS = event_columns()


def append(conn: Conn, new_events: Sequence[NewEvent]) -> list[Event]:
    """Append events (inside a write transaction) and project each one, in log order; a
    run of plain stores is written and projected together (:mod:`.store_run`, decision
    0111), any other event one at a time."""
    out: list[Event] = []
    next_version = _next_versions(conn, new_events)
    i = 0
    while i < len(new_events):
        j = i + 1
        if plain_store(new_events[i]):
            while j < len(new_events) and plain_store(new_events[j]):
                j += 1
        written = _insert(conn, new_events[i:j], next_version)
        if j - i > 1:
            store_run.project(conn, written)
        else:
            projector.apply(conn, written[0])
        out.extend(written)
        i = j
    return out


def _next_versions(conn: Conn, new_events: Sequence[NewEvent]) -> dict[str, int]:
    """The next version of every stream the events name: one read for all of them."""
    streams = sorted({ne.stream_id for ne in new_events})
    found = {
        str(r[0]): int(r[1])
        for r in execute(
            conn,
            "SELECT stream_id, max(version) FROM events WHERE stream_id = ANY(?) "
            "GROUP BY stream_id",
            (streams,),
        ).fetchall()
    }
    return {s: found.get(s, 0) + 1 for s in streams}


#: One encoder for every payload (``json.dumps`` with options builds one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True)
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
    rows: list[tuple[Any, ...]] = []
    versions: list[int] = []
    payloads: list[dict[str, Any]] = []
    for ne in new_events:
        version = next_version[ne.stream_id]
        if ne.expected_version is not None and ne.expected_version != version - 1:
            raise ConcurrencyError(
                f"stream {ne.stream_id} is at version {version - 1}, expected {ne.expected_version}"
            )
        next_version[ne.stream_id] = version + 1
        payload = EVENTS.to_payload(ne.body)
        rows.append(
            (
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
        versions.append(version)
        payloads.append(payload)
    with conn.cursor() as cur:
        cur.executemany(_INSERT, rows, returning=True)
        positions = [int(r[0]) for _ in cur.results() for r in cur.fetchall()]
    assert len(positions) == len(new_events)  # RETURNING gives each row
    return [
        Event(
            position=position,
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
        for ne, version, payload, position in zip(
            new_events, versions, payloads, positions, strict=True
        )
    ]


def read_stream(conn: Conn, stream_id: str) -> list[Event]:
    found = execute(
        conn, f"SELECT {_COLUMNS} FROM events WHERE stream_id = ? ORDER BY version", (stream_id,)
    ).fetchall()
    return [row_to_event(r) for r in found]


def recall_times(conn: Conn, fact_id: str) -> list[datetime]:
    """When each recall that returned ``fact_id`` happened, in log order (the payload
    searched as text, then each decoded body checked)."""
    from embornal.domain.events import EventType, FactsRecalled

    found = execute(
        conn,
        f"SELECT {_COLUMNS} FROM events WHERE type = ? AND position > "
        "(SELECT min(position) FROM events WHERE stream_id = ?) "
        "AND strpos(payload, ?) > 0 ORDER BY position",
        (EventType.FACTS_RECALLED.value, fact_id, fact_id),
    ).fetchall()
    out: list[datetime] = []
    for r in found:
        body = row_to_event(r).body
        if isinstance(body, FactsRecalled) and fact_id in body.fact_ids:
            out.append(body.at)
    return out


def read_page(conn: Conn, *, after: int, until: int | None, limit: int) -> list[Event]:
    """The first ``limit`` events above position ``after`` (up to ``until``), in log order."""
    bound = "" if until is None else f" AND position <= {int(until)}"
    found = execute(
        conn,
        f"SELECT {_COLUMNS} FROM events WHERE position > ?{bound} ORDER BY position LIMIT ?",
        (after, limit),
    ).fetchall()
    return [row_to_event(r) for r in found]


def read_all(
    conn: Conn, *, after: int = 0, until: int | None = None, batch: int = 1000
) -> Iterator[Event]:
    """Every event in log order (positions above ``after``, up to ``until``), in batches."""
    last = after
    while True:
        page = read_page(conn, after=last, until=until, limit=batch)
        if not page:
            return
        yield from page
        last = page[-1].position
