"""The projections of conflicts (decision 0059): ``conflicts``, ``conflict_members`` and
``entity_keys``, written by the projector in the transaction of the events, and rebuilt
from the log as every projection is. Written once for both backends (decision 0149, as 0119
wrote the past reads): plain SQL with ``?`` placeholders over a connection's ``execute``
and ``executemany``, SQLite's own or PostgreSQL's through its dialect
(:class:`embornal.storage.postgres.db.Dialect`).

``entity_keys`` holds the keys (:func:`embornal.domain.conflicts.resolution.keys_of`) of every
entity and preference fact with attributes, whatever its state: a read keeps the live ones. A
purge takes its keys away; an attribute update writes them again.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from embornal.domain.clock import format_time
from embornal.domain.events import Event, EventType
from embornal.hints import Any
from embornal.storage.sqlite.connect import Connection

__all__ = ["HANDLERS", "TABLES", "after", "fill_entity_keys", "write_keys"]

#: Projection tables, children first (the order a rebuild clears them).
TABLES = ("conflict_members", "conflicts", "entity_keys")


def write_keys(conn: Connection, fact_id: str) -> None:
    """The entity keys of ``fact_id`` from its row (none for a purged or plain fact)."""
    from embornal.domain.conflicts.resolution import DETECTED_KINDS, keys_of  # off recall's path

    conn.execute("DELETE FROM entity_keys WHERE fact_id = ?", (fact_id,))
    row = conn.execute(
        "SELECT kind, attributes FROM facts WHERE id = ? AND purged_at IS NULL", (fact_id,)
    ).fetchone()
    if row is None or row[0] not in DETECTED_KINDS or not row[1]:
        return
    conn.executemany(
        "INSERT INTO entity_keys (key, fact_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(k, fact_id) for k in sorted(keys_of(fact_id, row[0], json.loads(row[1])))],
    )


def fill_entity_keys(conn: Connection) -> None:
    """Every entity fact's keys (migration 0020, over the facts stored before it)."""
    from embornal.domain.conflicts.resolution import DETECTED_KINDS

    marks = ",".join("?" * len(DETECTED_KINDS))
    rows = conn.execute(
        f"SELECT id FROM facts WHERE kind IN ({marks}) AND attributes IS NOT NULL",
        sorted(DETECTED_KINDS),
    ).fetchall()
    for (fact_id,) in rows:
        write_keys(conn, fact_id)


_KEYED = frozenset(
    {
        EventType.FACT_STORED,
        EventType.FACT_ATTRIBUTES_UPDATED,
        EventType.FACT_PURGED,
    }
)


def after(conn: Connection, event: Event, body: Any) -> None:
    """The entity keys of the fact an event changed, after its own projection."""
    if event.type not in _KEYED:
        return
    if event.type == EventType.FACT_STORED:
        from embornal.domain.conflicts.resolution import (
            DETECTED_KINDS,  # a store: off recall's path
        )

        if body.kind not in DETECTED_KINDS:
            return
    write_keys(conn, body.fact_id)


def _opened(conn: Connection, e: Event, b: Any) -> None:
    conn.execute(
        "INSERT INTO conflicts (id, class, status, score, findings, detected_by, "
        "suggested_keep, opened_at, opened_by, opened_reason) "
        "VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)",
        (
            b.conflict_id,
            b.conflict_class,
            b.score,
            json.dumps(list(b.findings), ensure_ascii=False),
            b.detected_by,
            b.suggested_keep,
            format_time(e.recorded_at),
            e.actor,
            e.reason,
        ),
    )
    conn.executemany(
        "INSERT INTO conflict_members (conflict_id, fact_id, place) VALUES (?, ?, ?)",
        [(b.conflict_id, m, i) for i, m in enumerate(b.members)],
    )


def _resolved(conn: Connection, e: Event, b: Any) -> None:
    conn.execute(
        "UPDATE conflicts SET status = 'resolved', outcome = ?, kept_id = ?, archived = ?, "
        "resolved_at = ?, resolved_by = ?, reason = ? WHERE id = ?",
        (
            b.outcome,
            b.kept_id,
            json.dumps(list(b.archived)),
            format_time(e.recorded_at),
            e.actor,
            e.reason,
            b.conflict_id,
        ),
    )


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    EventType.CONFLICT_OPENED: _opened,
    EventType.CONFLICT_RESOLVED: _resolved,
}
