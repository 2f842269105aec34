"""The SQL of proposals and retention: the ``proposals`` projection (migration 0019,
decision 0055) and the reads a retention pass makes (decision 0056).

:data:`HANDLERS` are the projector's for the proposal events; :class:`ProposalQueries`
is the part of :class:`~embornal.storage.sqlite.store.SqliteStore` that reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.clock import format_time
from embornal.domain.events import EventType
from embornal.domain.facts.links import extract_links
from embornal.storage.common.context import LIVE
from embornal.storage.common.part import StorePart
from embornal.storage.contract.review import ProposalRow, RetentionRow
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    from embornal.domain.events import Event
    from embornal.domain.events.proposals import (
        ProposalApproved,
        ProposalEdited,
        ProposalOpened,
        ProposalRejected,
    )

__all__ = ["HANDLERS", "TABLE", "TABLES", "VERIFY_QUERY", "ProposalQueries"]

TABLE = "proposals"
#: The tables it projects (one).
TABLES = (TABLE,)
VERIFY_QUERY = (
    "SELECT id, status, title, source, proposer, opened_at, item_count, decided_by, "
    "decided_at, applied_count FROM proposals ORDER BY id"
)
_COLUMNS = (
    "id, status, title, source, proposer, opened_at, item_count, decided_by, decided_at, "
    "applied_count"
)


def _opened(conn: Connection, e: Event, b: ProposalOpened) -> None:
    conn.execute(
        "INSERT INTO proposals (id, status, title, source, proposer, opened_at, item_count) "
        "VALUES (?, 'open', ?, ?, ?, ?, ?)",
        (b.proposal_id, b.title, b.source, e.actor, format_time(e.recorded_at), len(b.items or {})),
    )


def _edited(conn: Connection, e: Event, b: ProposalEdited) -> None:
    conn.execute("UPDATE proposals SET item_count = ? WHERE id = ?", (b.item_count, b.proposal_id))


def _approved(conn: Connection, e: Event, b: ProposalApproved) -> None:
    conn.execute(
        "UPDATE proposals SET status = 'approved', decided_by = ?, decided_at = ?, "
        "applied_count = ? WHERE id = ?",
        (b.approver, format_time(e.recorded_at), len(b.items), b.proposal_id),
    )


def _rejected(conn: Connection, e: Event, b: ProposalRejected) -> None:
    conn.execute(
        "UPDATE proposals SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?",
        (e.actor, format_time(e.recorded_at), b.proposal_id),
    )


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    EventType.PROPOSAL_OPENED: _opened,
    EventType.PROPOSAL_EDITED: _edited,
    EventType.PROPOSAL_APPROVED: _approved,
    EventType.PROPOSAL_REJECTED: _rejected,
}


def _row(r: Any) -> ProposalRow:
    return ProposalRow(r[0], r[1], r[2], r[3], r[4], r[5], int(r[6]), r[7], r[8], int(r[9]))


class ProposalQueries(StorePart):
    """The reads of proposals and of retention's signals (``store.proposals``)."""

    def proposal_rows(self, *, status: str | None = None, limit: int = 50) -> list[ProposalRow]:
        where, params = ("WHERE status = ?", (status,)) if status else ("", ())
        rows = self._store._rows(
            f"SELECT {_COLUMNS} FROM proposals {where} ORDER BY opened_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [_row(r) for r in rows]

    def proposal_ids(self, prefix: str, *, after: str | None = None, limit: int = 2) -> list[str]:
        return self._ids_starting("proposals", prefix, after, limit)

    def retention_rows(self, scope: ReadScope = EVERYTHING) -> list[RetentionRow]:
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            "SELECT f.id, p.path, f.kind, f.created_at, f.last_recall_at, f.recall_count, "
            "f.confidence, f.last_confirmed_at, f.pinned, f.user_weight, f.lifetime "
            f"FROM facts f JOIN paths p ON p.id = f.path_id WHERE {LIVE} AND ({vis.sql}) "
            "ORDER BY f.seq",
            vis.params,
        )
        return [
            RetentionRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                int(r[5] or 0),
                None if r[6] is None else float(r[6]),
                r[7],
                bool(r[8]),
                None if r[9] is None else float(r[9]),
                r[10] or "standard",
            )
            for r in rows
        ]

    def link_in_degree(self, scope: ReadScope = EVERYTHING) -> dict[str, int]:
        """How many live facts in scope link to each path (``[[/path]]`` in their
        content: keyed by the path) and to each fact (their typed links, ``fact_links``:
        keyed by the fact id; a symmetric link counts at both ends)."""
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            f"SELECT f.content FROM facts f WHERE {LIVE} AND ({vis.sql}) "
            "AND instr(f.content, '[[/') > 0",
            vis.params,
        )
        out: dict[str, int] = {}
        for (content,) in rows:
            for path in extract_links(content or ""):
                out[path] = out.get(path, 0) + 1
        from embornal.domain.graph.rules import SYMMETRIC  # the graph's rules: off the recall path

        symmetric = ", ".join(f"'{r.value}'" for r in SYMMETRIC)
        typed = self._store._rows(
            "SELECT l.target_id, count(*) FROM fact_links l JOIN facts f ON f.id = l.source_id "
            f"WHERE {LIVE} AND ({vis.sql}) GROUP BY l.target_id "
            "UNION ALL SELECT l.source_id, count(*) FROM fact_links l "
            f"JOIN facts f ON f.id = l.target_id WHERE {LIVE} AND ({vis.sql}) "
            f"AND l.relation IN ({symmetric}) GROUP BY l.source_id",
            [*vis.params, *vis.params],
        )
        for fact_id, n in typed:
            out[str(fact_id)] = out.get(str(fact_id), 0) + int(n)
        return out
