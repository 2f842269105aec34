"""Typed links and merges on PostgreSQL (decisions 0052, 0054): the projections of
``FactLinked``, ``FactUnlinked`` and ``FactMerged``. The reads are SQLite's own
(:class:`embornal.storage.common.graph.LinkReads`, through :func:`.db.pg_sql`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time
from embornal.domain.events.base import EventType
from embornal.storage.postgres.db import Conn, execute

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["HANDLERS", "TABLES"]

TABLES = ("fact_links", "fact_merges")


def _linked(conn: Conn, e: Event, b: Any) -> None:
    execute(
        conn,
        "INSERT INTO fact_links (source_id, relation, target_id, position, linked_at, actor) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, relation, target_id) DO UPDATE "
        "SET position = excluded.position, linked_at = excluded.linked_at, "
        "actor = excluded.actor",
        (b.fact_id, b.relation, b.target_id, e.position, format_time(e.recorded_at), e.actor),
    )


def _unlinked(conn: Conn, e: Event, b: Any) -> None:
    execute(
        conn,
        "DELETE FROM fact_links WHERE source_id = ? AND relation = ? AND target_id = ?",
        (b.fact_id, b.relation, b.target_id),
    )


def _merged(conn: Conn, e: Event, b: Any) -> None:
    execute(
        conn,
        "INSERT INTO fact_merges (source_id, survivor_id, position, merged_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (source_id) DO UPDATE SET "
        "survivor_id = excluded.survivor_id, position = excluded.position, "
        "merged_at = excluded.merged_at",
        (b.source_id, b.fact_id, e.position, format_time(e.recorded_at)),
    )


HANDLERS: dict[str, Callable[[Conn, Event, Any], None]] = {
    EventType.FACT_LINKED.value: _linked,
    EventType.FACT_UNLINKED.value: _unlinked,
    EventType.FACT_MERGED.value: _merged,
}
