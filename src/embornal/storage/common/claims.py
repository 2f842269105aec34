"""The claims ledger's projections (migration 0025, decision 0081): how the events of each
``claim:<id>`` stream change ``claims`` and ``claim_citations``, the reads of them, and
(what a purge does to the claims citing the purged memory: :mod:`.purge_mentions`).

The projector (:mod:`.projector`) calls :data:`HANDLERS` in the transaction that appends
each event; ``admin rebuild`` replays them and ``admin verify`` compares
:data:`VERIFY_QUERIES` with a replay. Neither table holds user text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time
from embornal.storage.common.event_rows import event_columns, row_to_event
from embornal.storage.common.part import StorePart, given_terms
from embornal.storage.contract.claims import ClaimRow
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    from embornal.domain.events import Event
    from embornal.domain.events.claims import (
        ClaimAdopted,
        ClaimCreated,
        ClaimEvidenceAdded,
        ClaimSuperseded,
        ClaimWithdrawn,
    )

__all__ = ["HANDLERS", "TABLES", "VERIFY_QUERIES", "ClaimQueries"]

#: Cleared before a replay (children first).
TABLES: tuple[str, ...] = ("claim_citations", "claims")

VERIFY_QUERIES = {
    "claims": "SELECT id, owner, claim_type, scope, status, recorded_at, updated_at "
    "FROM claims ORDER BY id",
    "claim_citations": "SELECT claim_id, memory_id FROM claim_citations ORDER BY 1, 2",
}

_COLUMNS = "id, owner, claim_type, scope, status, recorded_at, updated_at"


def _cite(conn: Connection, claim_id: str, memory_ids: Sequence[str]) -> None:
    conn.executemany(
        "INSERT INTO claim_citations (claim_id, memory_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(claim_id, m) for m in memory_ids],
    )


def _touch(conn: Connection, e: Event, claim_id: str, status: str | None = None) -> None:
    if status is None:
        conn.execute(
            "UPDATE claims SET updated_at = ? WHERE id = ?",
            (format_time(e.recorded_at), claim_id),
        )
    else:
        conn.execute(
            "UPDATE claims SET status = ?, updated_at = ? WHERE id = ?",
            (status, format_time(e.recorded_at), claim_id),
        )


def _created(conn: Connection, e: Event, b: ClaimCreated) -> None:
    at = format_time(e.recorded_at)
    conn.execute(
        f"INSERT INTO claims ({_COLUMNS}) VALUES (?, ?, ?, ?, 'proposed', ?, ?)",
        (b.claim_id, e.actor, b.claim_type, b.scope, at, at),
    )
    _cite(conn, b.claim_id, b.about)


def _evidence(conn: Connection, e: Event, b: ClaimEvidenceAdded) -> None:
    if b.memory_id:
        _cite(conn, b.claim_id, [b.memory_id])
    _touch(conn, e, b.claim_id)


def _touched(conn: Connection, e: Event, b: Any) -> None:
    _touch(conn, e, b.claim_id)


def _adopted(conn: Connection, e: Event, b: ClaimAdopted) -> None:
    _touch(conn, e, b.claim_id, "adopted")


def _superseded(conn: Connection, e: Event, b: ClaimSuperseded) -> None:
    _touch(conn, e, b.claim_id, "superseded")


def _withdrawn(conn: Connection, e: Event, b: ClaimWithdrawn) -> None:
    _touch(conn, e, b.claim_id, "withdrawn")


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    "ClaimCreated": _created,
    "ClaimEvidenceAdded": _evidence,
    "ClaimEvidenceRetracted": _touched,
    "ClaimAdopted": _adopted,
    "ClaimRevised": _touched,
    "ClaimSuperseded": _superseded,
    "ClaimWithdrawn": _withdrawn,
}


def _row(r: Any) -> ClaimRow:
    return ClaimRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6])


class ClaimQueries(StorePart):
    """The reads of the claims ledger (``store.claims``)."""

    def claim_rows(
        self,
        *,
        status: str | None = None,
        scope: str | None = None,
        recorded_by: str | None = None,
        limit: int = 200,
    ) -> list[ClaimRow]:
        where, params = given_terms(
            ("status = ?", status), ("scope = ?", scope), ("recorded_at <= ?", recorded_by)
        )
        sql = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._store._rows(
            f"SELECT {_COLUMNS} FROM claims {sql} ORDER BY recorded_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [_row(r) for r in rows]

    def claim_citations(self, claim_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for start in range(0, len(claim_ids), 500):
            chunk = list(claim_ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            for claim_id, memory_id in self._store._rows(
                f"SELECT claim_id, memory_id FROM claim_citations WHERE claim_id IN ({marks}) "
                "ORDER BY claim_id, memory_id",
                chunk,
            ):
                out.setdefault(claim_id, []).append(memory_id)
        return {k: tuple(v) for k, v in out.items()}

    def claims_citing(self, memory_id: str, *, limit: int = 200) -> list[ClaimRow]:
        columns = ", ".join("c." + c for c in _COLUMNS.split(", "))
        rows = self._store._rows(
            f"SELECT {columns} FROM claim_citations t JOIN claims c ON c.id = t.claim_id "
            "WHERE t.memory_id = ? ORDER BY c.recorded_at DESC, c.id DESC LIMIT ?",
            (memory_id, limit),
        )
        return [_row(r) for r in rows]

    def claim_ids(self, prefix: str, *, after: str | None = None, limit: int = 2) -> list[str]:
        return self._ids_starting("claims", prefix, after, limit)

    def events_of_types(
        self, types: Sequence[str], *, limit: int, before: int | None = None
    ) -> list[Event]:
        if not types:
            return []
        marks = ",".join("?" * len(types))
        bound = "" if before is None else " AND e.position < ?"
        rows = self._store._rows(
            f"SELECT {event_columns('e')} FROM events e WHERE e.type IN ({marks}){bound} "
            "ORDER BY e.position DESC LIMIT ?",
            (*types, *(() if before is None else (before,)), limit),
        )
        return [row_to_event(r) for r in rows]
