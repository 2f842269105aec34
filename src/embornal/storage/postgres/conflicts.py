"""Conflicts on PostgreSQL (decision 0059): the projections of ``ConflictOpened`` and
``ConflictResolved``, the entity keys of entity and preference facts, and the reads of
:class:`~embornal.storage.contract.ConflictReads`. The keys themselves come from the
domain (:func:`embornal.domain.resolution.keys_of`); every read is SQLite's own,
through the dialect (:mod:`embornal.storage.conflict_reads`: ``key_matches`` and
``entity_groups`` are its functions)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time
from embornal.domain.events import EventType
from embornal.storage.conflict_reads import entity_groups, key_matches
from embornal.storage.postgres.db import Conn, execute

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["HANDLERS", "TABLES", "after", "entity_groups", "key_matches"]

TABLES = ("conflict_members", "conflicts", "entity_keys")


def write_keys(conn: Conn, fact_id: str) -> None:
    """The entity keys of ``fact_id`` from its row (none for a purged or plain fact)."""
    from embornal.domain.resolution import DETECTED_KINDS, keys_of

    execute(conn, "DELETE FROM entity_keys WHERE fact_id = ?", (fact_id,))
    row = execute(
        conn, "SELECT kind, attributes FROM facts WHERE id = ? AND purged_at IS NULL", (fact_id,)
    ).fetchone()
    if row is None or row[0] not in DETECTED_KINDS or not row[1]:
        return
    for key in sorted(keys_of(fact_id, row[0], json.loads(row[1]))):
        execute(
            conn,
            "INSERT INTO entity_keys (key, fact_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (key, fact_id),
        )


_KEYED = frozenset(
    {
        EventType.FACT_STORED.value,
        EventType.FACT_ATTRIBUTES_UPDATED.value,
        EventType.FACT_PURGED.value,
    }
)


def after(conn: Conn, event: Event, body: Any) -> None:
    """The entity keys of the fact an event changed, after its own projection."""
    if event.type not in _KEYED:
        return
    if event.type == EventType.FACT_STORED.value:
        from embornal.domain.resolution import DETECTED_KINDS

        if body.kind not in DETECTED_KINDS:
            return
    write_keys(conn, body.fact_id)


def _opened(conn: Conn, e: Event, b: Any) -> None:
    execute(
        conn,
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
    for i, member in enumerate(b.members):
        execute(
            conn,
            "INSERT INTO conflict_members (conflict_id, fact_id, place) VALUES (?, ?, ?)",
            (b.conflict_id, member, i),
        )


def _resolved(conn: Conn, e: Event, b: Any) -> None:
    execute(
        conn,
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


HANDLERS: dict[str, Callable[[Conn, Event, Any], None]] = {
    EventType.CONFLICT_OPENED.value: _opened,
    EventType.CONFLICT_RESOLVED.value: _resolved,
}
