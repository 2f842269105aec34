"""Narrative accounts' projections (migration 0026, decisions 0085, 0086): how their
events change ``narratives`` and ``narrative_dependencies``, and the reads of them.

The projector (:mod:`.projector`) calls :data:`HANDLERS` in the transaction that appends
each event; ``admin rebuild`` replays them and ``admin verify`` compares
:data:`VERIFY_QUERIES` with a replay. A review changes no row: what it approved is in
the account's stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from embornal.domain.clock import format_time
from embornal.domain.events import Event, EventType
from embornal.storage.common.part import StorePart
from embornal.storage.contract.narratives import NarrativeRow
from embornal.storage.sqlite.connect import Connection

__all__ = ["HANDLERS", "TABLES", "VERIFY_QUERIES", "NarrativeQueries"]

#: Cleared before a replay (children first).
TABLES = ("narrative_dependencies", "narratives")

VERIFY_QUERIES = {
    "narratives": "SELECT id, stream_id, scope, perspective, number, position, recorded_at, "
    "actor, current FROM narratives ORDER BY id",
    "narrative_dependencies": "SELECT narrative_id, fact_id FROM narrative_dependencies "
    "ORDER BY 1, 2",
}

_COLS = "id, stream_id, scope, perspective, number, recorded_at"


def _versioned(conn: Connection, e: Event, b: Any) -> None:
    conn.execute("UPDATE narratives SET current = 0 WHERE stream_id = ?", (e.stream_id,))
    conn.execute(
        "INSERT INTO narratives (id, stream_id, scope, perspective, number, position, "
        "recorded_at, actor, current) VALUES (?, ?, ?, ?, "
        "(SELECT count(*) + 1 FROM narratives WHERE stream_id = ?), ?, ?, ?, 1)",
        (
            b.narrative_id,
            e.stream_id,
            b.scope,
            b.perspective,
            e.stream_id,
            e.position,
            format_time(e.recorded_at),
            e.actor,
        ),
    )
    facts = list(b.memory_ids)
    for link in b.link_ids:  # SOURCE:relation:TARGET (decision 0085)
        source, _, target = link.split(":")
        facts += [source, target]
    conn.executemany(
        "INSERT INTO narrative_dependencies (narrative_id, fact_id) VALUES (?, ?) "
        "ON CONFLICT DO NOTHING",
        [(b.narrative_id, f) for f in dict.fromkeys(facts)],
    )


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    EventType.NARRATIVE_VERSIONED: _versioned,
    EventType.NARRATIVE_REVIEWED: lambda conn, e, b: None,  # its stream holds it
    EventType.NARRATIVE_INVALIDATED: lambda conn, e, b: None,  # a record only
}


def _row(r: Any) -> NarrativeRow:
    return NarrativeRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4]), str(r[5]))


class NarrativeQueries(StorePart):
    """The reads of narrative accounts, a part of either store (``store.narratives``)."""

    def narrative_accounts(
        self, *, scope: str | None = None, limit: int = 200
    ) -> list[NarrativeRow]:
        where, params = ("AND scope = ?", (scope,)) if scope is not None else ("", ())
        rows = self._store._rows(
            f"SELECT {_COLS} FROM narratives WHERE current = 1 {where} "
            "ORDER BY position DESC LIMIT ?",
            (*params, limit),
        )
        return [_row(r) for r in rows]

    def narratives_on(self, fact_id: str) -> list[NarrativeRow]:
        rows = self._store._rows(
            f"SELECT {', '.join('n.' + c for c in _COLS.split(', '))} FROM narratives n "
            "JOIN narrative_dependencies d ON d.narrative_id = n.id "
            "WHERE d.fact_id = ? AND n.current = 1 ORDER BY n.position DESC",
            (fact_id,),
        )
        return [_row(r) for r in rows]

    def narrative_row(self, narrative_id: str) -> NarrativeRow | None:
        rows = self._store._rows(
            f"SELECT {_COLS} FROM narratives WHERE id = ?", (narrative_id.strip().upper(),)
        )
        return _row(rows[0]) if rows else None
