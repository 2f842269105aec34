"""The history protocol's projections (migrations 0022, 0027, 0032; decision 0064): how its events
change ``memory_protocol`` and ``memory_corroborations``, and the reads of its lists
(the working material due for consolidation, the interpretations due for review, the
forgotten memories with their reasons, the anchor count).

The projector (:mod:`.projector`) calls :data:`HANDLERS` in the transaction that appends
each event; ``admin rebuild`` replays them and ``admin verify`` compares
:data:`VERIFY_QUERIES` with a replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.domain.history.state import UNSPECIFIED
from embornal.storage.common import context
from embornal.storage.common.context import LIVE
from embornal.storage.common.event_rows import event_columns, row_to_event
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.part import StorePart
from embornal.storage.contract.store import ForgottenRow, ProtocolRow
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope
    from embornal.domain.events import Event
    from embornal.domain.events.protocol import (
        MemoryCaptured,
        MemoryContextSet,
        MemoryCorroborated,
        MemoryFlaggedSensitive,
        MemoryPromoted,
        MemoryReviewed,
        MemoryTierChanged,
        MemoryUnpinNoop,
    )

__all__ = [
    "HANDLERS",
    "TABLES",
    "VERIFY_QUERIES",
    "ProtocolReads",
    "ensure_row",
    "purged",
]

# As the store's present reads (storage/sqlite/store.py): a fact's columns, and live.

_EVENT_COLS = event_columns("e")

#: Cleared before a replay (children first: none here).
TABLES = ("memory_corroborations", "memory_protocol")

VERIFY_QUERIES = {
    "memory_protocol": "SELECT fact_id, stage, tier, sensitive, captured_at, reviewed_at, "
    "session, frame, event_at, session_position, material_type, origin_id, capture_context "
    "FROM memory_protocol ORDER BY fact_id",
    "memory_corroborations": "SELECT fact_id, position, source, common_origin, recorded_at, "
    "actor FROM memory_corroborations ORDER BY 1, 2",
}


def ensure_row(conn: Connection, fact_id: str) -> None:
    """The fact's row, as an ordinary fact's (consolidated, archive) when it has none."""
    conn.execute(
        "INSERT INTO memory_protocol (fact_id, stage, tier) VALUES (?, 'consolidated', "
        "'archive') ON CONFLICT (fact_id) DO NOTHING",
        (fact_id,),
    )


def _captured(conn: Connection, e: Event, b: MemoryCaptured) -> None:
    at = None if b.event_at is None else format_time(b.event_at)
    conn.execute(
        "INSERT INTO memory_protocol (fact_id, stage, tier, sensitive, captured_at, session, "
        "event_at, session_position, material_type, origin_id, capture_context) "
        "VALUES (?, 'working', ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (fact_id) DO UPDATE SET stage = 'working', tier = excluded.tier, "
        "sensitive = excluded.sensitive, captured_at = excluded.captured_at, "
        "session = excluded.session, event_at = excluded.event_at, "
        "session_position = excluded.session_position, "
        "material_type = excluded.material_type, origin_id = excluded.origin_id, "
        "capture_context = excluded.capture_context",
        (
            b.fact_id,
            b.tier,
            int(b.sensitive),
            format_time(e.recorded_at),
            b.session,
            at,
            b.session_position,
            b.material_type or UNSPECIFIED,
            b.origin_id,
            b.capture_context,
        ),
    )


def _context_set(conn: Connection, e: Event, b: MemoryContextSet) -> None:
    ensure_row(conn, b.fact_id)
    at = None if b.event_at is None else format_time(b.event_at)
    conn.execute(
        "UPDATE memory_protocol SET event_at = ?, session = ?, session_position = ? "
        "WHERE fact_id = ?",
        (at, b.session, b.session_position, b.fact_id),
    )


def _set(
    column: str, value: Callable[[Event, Any], Any]
) -> Callable[[Connection, Event, Any], None]:
    def handle(conn: Connection, e: Event, b: Any) -> None:
        ensure_row(conn, b.fact_id)
        conn.execute(
            f"UPDATE memory_protocol SET {column} = ? WHERE fact_id = ?", (value(e, b), b.fact_id)
        )

    return handle


def _corroborated(conn: Connection, e: Event, b: MemoryCorroborated) -> None:
    ensure_row(conn, b.fact_id)
    conn.execute(
        "INSERT INTO memory_corroborations (fact_id, position, source, common_origin, "
        "recorded_at, actor) VALUES (?, ?, ?, ?, ?, ?)",
        (b.fact_id, e.position, b.source, b.common_origin, format_time(e.recorded_at), e.actor),
    )


def _noop(conn: Connection, e: Event, b: MemoryUnpinNoop) -> None:
    return None


def _promoted(e: Event, b: MemoryPromoted) -> str:
    return "consolidated"


def _tier(e: Event, b: MemoryTierChanged) -> str:
    return b.tier


def _reviewed(e: Event, b: MemoryReviewed) -> str:
    return format_time(e.recorded_at)


def _sensitive(e: Event, b: MemoryFlaggedSensitive) -> int:
    return 1


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    "MemoryCaptured": _captured,
    "MemoryPromoted": _set("stage", _promoted),
    "MemoryCorroborated": _corroborated,
    "MemoryTierChanged": _set("tier", _tier),
    "MemoryReviewed": _set("reviewed_at", _reviewed),
    "MemoryFlaggedSensitive": _set("sensitive", _sensitive),
    "MemoryUnpinNoop": _noop,
    "MemoryRefused": _noop,  # audited, changes nothing (decision 0142)
    "MemoryReviewOverdue": _noop,  # in the fact's stream; read from its state
    "MemoryContextSet": _context_set,
}


def purged(conn: Connection, fact_id: str) -> None:
    """A purge erases the corroboration labels, the session and the declared origin and
    capture context of the fact (as its events are redacted)."""
    conn.execute(
        "UPDATE memory_corroborations SET source = NULL, common_origin = NULL WHERE fact_id = ?",
        (fact_id,),
    )
    conn.execute(
        "UPDATE memory_protocol SET session = NULL, origin_id = NULL, capture_context = NULL "
        "WHERE fact_id = ?",
        (fact_id,),
    )


# -- reads -------------------------------------------------------------------------------


class ProtocolReads(StorePart):
    """The history protocol's lists, a part of either store (``store.protocol``)."""

    def _protocol_list(
        self, scope: ReadScope, where: str, since_sql: str, params: Sequence[Any], limit: int
    ) -> list[ProtocolRow]:
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            f"SELECT {FACT_COLS}, m.stage AS m_stage, m.tier AS m_tier, "
            f"m.sensitive AS m_sensitive, {since_sql} AS m_since "
            "FROM memory_protocol m JOIN facts f ON f.id = m.fact_id "
            f"JOIN paths p ON p.id = f.path_id WHERE {LIVE} AND {where} AND ({vis.sql}) "
            f"ORDER BY {since_sql}, f.id LIMIT ?",
            (*params, *vis.params, limit),
        )
        facts = self._store._facts(rows, vis)
        return [
            ProtocolRow(
                fact, r["m_stage"], r["m_tier"], bool(r["m_sensitive"]), parse_time(r["m_since"])
            )
            for fact, r in zip(facts, rows, strict=True)
        ]

    def working_memories(
        self, scope: ReadScope, *, captured_before: str, limit: int
    ) -> list[ProtocolRow]:
        """Live working material in scope captured at or before ``captured_before``
        (ISO text), oldest first."""
        return self._protocol_list(
            scope,
            "m.stage = 'working' AND m.captured_at <= ?",
            "m.captured_at",
            (captured_before,),
            limit,
        )

    def interpretations_due(
        self, scope: ReadScope, *, reviewed_before: str, limit: int
    ) -> list[ProtocolRow]:
        """Live interpretations in scope last reviewed (or, never reviewed, captured or
        stored) before ``reviewed_before``, the longest unreviewed first."""
        since = "coalesce(m.reviewed_at, m.captured_at, f.created_at)"
        return self._protocol_list(
            scope,
            f"m.tier = 'interpretation' AND {since} < ?",
            since,
            (reviewed_before,),
            limit,
        )

    def forgotten_memories(self, scope: ReadScope, *, limit: int) -> list[ForgottenRow]:
        """Forgotten (not purged) facts in scope, the last forgotten first, each with the
        reason, time and actor of the forget that took it out."""
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            f"SELECT {FACT_COLS}, e.reason AS e_reason, e.actor AS e_actor, "
            "e.recorded_at AS e_at FROM facts f JOIN paths p ON p.id = f.path_id "
            "JOIN events e ON e.position = (SELECT max(position) FROM events "
            "WHERE stream_id = f.id AND +type = 'FactForgotten') "  # the stream's index
            f"WHERE f.deleted_at IS NOT NULL AND f.purged_at IS NULL AND ({vis.sql}) "
            "ORDER BY f.deleted_at DESC, f.id LIMIT ?",
            (*vis.params, limit),
        )
        facts = self._store._facts(rows, vis)
        return [
            ForgottenRow(fact, parse_time(r["e_at"]), r["e_reason"], r["e_actor"])
            for fact, r in zip(facts, rows, strict=True)
        ]

    def audit_events(
        self, scope: ReadScope, *, limit: int, before: int | None = None
    ) -> list[Event]:
        """The events of the facts in scope (forgotten ones too), the newest first, below
        position ``before``: every decision on a memory, with its reason (``audit_log``,
        decision 0084). The recalls a read records are not decisions: left out."""
        vis = self._store._scopes.get(scope)
        bound = "" if before is None else " AND e.position < ?"
        rows = self._store._rows(
            f"SELECT {_EVENT_COLS} FROM events e JOIN facts f ON f.id = e.stream_id "
            f"JOIN paths p ON p.id = f.path_id WHERE e.type != 'FactsRecalled'{bound} "
            f"AND ({vis.sql}) ORDER BY e.position DESC LIMIT ?",
            (*(() if before is None else (before,)), *vis.params, limit),
        )
        return [row_to_event(r) for r in rows]

    def anchor_count(self, scope: ReadScope) -> int:
        """How many live facts in scope are pinned."""
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            "SELECT count(*) FROM facts f INDEXED BY facts_pinned JOIN paths p ON p.id = f.path_id "
            f"WHERE f.pinned = 1 AND {LIVE} AND ({vis.sql})",
            tuple(vis.params),
        )
        return int(rows[0][0])

    def fact_counts(self, scope: ReadScope) -> list[tuple[str, str, str, int]]:
        """How many facts in scope there are of each state (``active``, ``expired``,
        ``superseded``, ``forgotten``, ``purged``), kind and protocol stage (``working``,
        ``consolidated``, or ``""``: no protocol row), whatever their state."""
        vis = self._store._scopes.get(scope)
        state = (
            "CASE WHEN f.purged_at IS NOT NULL THEN 'purged' "
            "WHEN f.deleted_at IS NOT NULL THEN 'forgotten' "
            "WHEN f.superseded_by IS NOT NULL THEN 'superseded' "
            f"WHEN NOT {context.NOT_EXPIRED} THEN 'expired' ELSE 'active' END"
        )
        rows = self._store._rows(
            f"SELECT {state} AS s, f.kind AS k, coalesce(m.stage, '') AS st, count(*) AS n "
            "FROM facts f JOIN paths p ON p.id = f.path_id "
            "LEFT JOIN memory_protocol m ON m.fact_id = f.id "
            f"WHERE ({vis.sql}) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            tuple(vis.params),
        )
        return [(str(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]
