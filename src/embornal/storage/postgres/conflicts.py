"""Conflicts on PostgreSQL (decision 0059): the projections of ``ConflictOpened`` and
``ConflictResolved``, the entity keys of entity and preference facts, and the reads of
:class:`~embornal.storage.contract.ConflictReads`. The keys themselves come from the
domain (:func:`embornal.domain.resolution.keys_of`); the conflict rows are read into
states by SQLite's own reader (:func:`embornal.storage.conflict_reads.conflict_states`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time
from embornal.domain.events import EventType
from embornal.storage.postgres.db import Conn, execute

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["HANDLERS", "TABLES", "after", "entity_groups", "key_matches"]

TABLES = ("conflict_members", "conflicts", "entity_keys")
Rows = Callable[[str, Sequence[Any]], list[Any]]
_LIVE = "f.deleted_at IS NULL AND f.superseded_by IS NULL AND f.purged_at IS NULL"


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


def key_matches(rows: Rows, keys: Sequence[str], exclude: str, limit: int) -> list[str]:
    """Live facts (ids, oldest first) holding any of ``keys``, but ``exclude``."""
    if not keys:
        return []
    found = rows(
        "SELECT k.fact_id FROM entity_keys k JOIN facts f ON f.id = k.fact_id "
        f"WHERE k.key = ANY(?) AND k.fact_id <> ? AND {_LIVE} "
        "GROUP BY k.fact_id, f.created_at ORDER BY f.created_at, k.fact_id LIMIT ?",
        (list(keys), exclude, limit),
    )
    return [str(r[0]) for r in found]


def entity_groups(rows: Rows, largest: int) -> list[tuple[str, ...]]:
    """The live facts sharing each key, for keys that two to ``largest`` live facts hold."""
    found = rows(
        "SELECT k.key, string_agg(k.fact_id, ' ') FROM entity_keys k "
        f"JOIN facts f ON f.id = k.fact_id WHERE {_LIVE} GROUP BY k.key "
        "HAVING count(*) BETWEEN 2 AND ?",
        (largest,),
    )
    return sorted({tuple(sorted(str(r[1]).split())) for r in found})
