"""The projections of canon and frames (migration 0024, decision 0078): how
``MemoryCanonized``, ``MemoryDecanonized`` and ``MemoryFramed`` change ``canon_entries``
and ``memory_protocol.frame``, and the reads of the active canon and the frames in use.

The projector (:mod:`.projector`) calls :data:`HANDLERS` in the transaction that appends
each event; ``admin rebuild`` replays them and ``admin verify`` compares
:data:`VERIFY_QUERIES` with a replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.storage.common.context import LIVE
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.part import StorePart, given_terms
from embornal.storage.common.protocol import ensure_row
from embornal.storage.contract.review import CanonRow, LabelCount
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope
    from embornal.domain.events import Event
    from embornal.domain.events.canon import MemoryCanonized, MemoryDecanonized, MemoryFramed
    from embornal.domain.facts.fact import Fact

__all__ = ["HANDLERS", "TABLES", "VERIFY_QUERIES", "CanonQueries", "purged"]


#: Cleared before a replay (the frame is a column of ``memory_protocol``, cleared there).
TABLES = ("canon_entries",)

VERIFY_QUERIES = {
    "canon_entries": "SELECT fact_id, scope, since, position, reason, actor "
    "FROM canon_entries ORDER BY 1, 2",
}


def _canonized(conn: Connection, e: Event, b: MemoryCanonized) -> None:
    if b.scope is None:  # redacted by a purge: the purge left no membership
        return
    conn.execute(
        "INSERT INTO canon_entries (fact_id, scope, since, position, reason, actor) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (fact_id, scope) DO UPDATE SET "
        "since = excluded.since, position = excluded.position, reason = excluded.reason, "
        "actor = excluded.actor",
        (b.fact_id, b.scope, format_time(e.recorded_at), e.position, e.reason, e.actor),
    )


def _decanonized(conn: Connection, e: Event, b: MemoryDecanonized) -> None:
    conn.execute("DELETE FROM canon_entries WHERE fact_id = ? AND scope = ?", (b.fact_id, b.scope))


def _framed(conn: Connection, e: Event, b: MemoryFramed) -> None:
    ensure_row(conn, b.fact_id)
    conn.execute("UPDATE memory_protocol SET frame = ? WHERE fact_id = ?", (b.frame, b.fact_id))


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    "MemoryCanonized": _canonized,
    "MemoryDecanonized": _decanonized,
    "MemoryFramed": _framed,
}


def purged(conn: Connection, fact_id: str) -> None:
    """A purged memory leaves every canon scope and loses its frame."""
    conn.execute("DELETE FROM canon_entries WHERE fact_id = ?", (fact_id,))
    conn.execute("UPDATE memory_protocol SET frame = NULL WHERE fact_id = ?", (fact_id,))


# -- reads -------------------------------------------------------------------------------


class CanonQueries(StorePart):
    """The reads of canon, frames and anchors, a part of either store (``store.canon``)."""

    def canon_rows(
        self, scope: ReadScope, *, canon_scope: str | None = None, fact_id: str | None = None
    ) -> list[CanonRow]:
        """The active memberships of live facts in scope, oldest first."""
        vis = self._store._scopes.get(scope)
        where, params = given_terms(("c.scope = ?", canon_scope), ("c.fact_id = ?", fact_id))
        extra = "".join(f" AND {w}" for w in where)
        rows = self._store._rows(
            f"SELECT {FACT_COLS}, c.scope AS c_scope, c.since AS c_since, "
            "c.reason AS c_reason, c.actor AS c_actor, "
            "coalesce(m.sensitive, 0) AS c_sensitive FROM canon_entries c "
            "JOIN facts f ON f.id = c.fact_id JOIN paths p ON p.id = f.path_id "
            "LEFT JOIN memory_protocol m ON m.fact_id = c.fact_id "
            f"WHERE {LIVE}{extra} AND ({vis.sql}) ORDER BY c.position, c.scope",
            (*params, *vis.params),
        )
        facts = self._store._facts(rows, vis)
        return [
            CanonRow(
                fact,
                r["c_scope"],
                parse_time(r["c_since"]),
                r["c_reason"],
                r["c_actor"],
                bool(r["c_sensitive"]),
            )
            for fact, r in zip(facts, rows, strict=True)
        ]

    def _label_counts(self, scope: ReadScope, sql: str) -> list[LabelCount]:
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(sql.format(live=LIVE, vis=vis.sql), tuple(vis.params))
        return [LabelCount(r[0], int(r[1])) for r in rows]

    def canon_scopes(self, scope: ReadScope) -> list[LabelCount]:
        """The canon scopes with an active membership of a live fact in scope."""
        return self._label_counts(
            scope,
            "SELECT c.scope, count(*) FROM canon_entries c JOIN facts f ON f.id = c.fact_id "
            "JOIN paths p ON p.id = f.path_id WHERE {live} AND ({vis}) "
            "GROUP BY c.scope ORDER BY c.scope",
        )

    def frame_counts(self, scope: ReadScope) -> list[LabelCount]:
        """The frames of live facts in scope, with how many carry each."""
        return self._label_counts(
            scope,
            "SELECT m.frame, count(*) FROM memory_protocol m INDEXED BY memory_protocol_frame "
            "JOIN facts f ON f.id = m.fact_id JOIN paths p ON p.id = f.path_id "
            "WHERE m.frame IS NOT NULL AND {live} AND ({vis}) GROUP BY m.frame ORDER BY m.frame",
        )

    def anchor_facts(self, scope: ReadScope, *, limit: int) -> list[Fact]:
        """The live pinned facts in scope, in the order they were stored (the recall
        cascade's anchors, decision 0095)."""
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            f"SELECT {FACT_COLS} FROM facts f INDEXED BY facts_pinned "
            f"JOIN paths p ON p.id = f.path_id WHERE f.pinned = 1 AND {LIVE} AND ({vis.sql}) "
            "ORDER BY f.seq LIMIT ?",
            (*vis.params, limit),
        )
        return self._store._facts(rows, vis)

    def frames_of(self, fact_ids: Sequence[str]) -> dict[str, str]:
        """The frame of each of ``fact_ids`` that has one (decision 0078)."""
        if not fact_ids:
            return {}
        marks = ",".join("?" * len(fact_ids))
        rows = self._store._rows(
            f"SELECT fact_id, frame FROM memory_protocol WHERE fact_id IN ({marks}) "
            "AND frame IS NOT NULL",
            tuple(fact_ids),
        )
        return {str(r[0]): str(r[1]) for r in rows}
