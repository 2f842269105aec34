"""The timeline's reads (decision 0089): the memories with a history (a ``memory_protocol``
row) by event time, by session position and by keyword, each read driven by an index
(migration 0027), never by a scan of the memories.

* a window or no filter: ``memory_protocol_event`` in event order, then (no window) the
  memories of unknown event time in record order, walked from the facts by ``seq``;
* a session: ``memory_protocol_session``, one session's rows sorted;
* a keyword search: the FTS5 match, filtered by the window and session.

The SQLite store's part ``timeline``; PostgreSQL's derives from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.facts.fact import Fact
from embornal.domain.recall.text import fts_query
from embornal.storage.common import context
from embornal.storage.common.context import LIVE
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.part import StorePart, given_terms
from embornal.storage.contract.timeline import TimelineRow

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope
    from embornal.storage.common.access import Visibility

__all__ = ["CONTEXT_COLS", "TimelineQueries", "filters", "rows_to_timeline"]

CONTEXT_COLS = "m.event_at AS m_event_at, m.session AS m_session, m.session_position AS m_position"
#: Forgotten memories too (not purged ones, whose text is gone).
_KEPT = f"f.purged_at IS NULL AND f.superseded_by IS NULL AND {context.NOT_EXPIRED}"


def filters(session: str | None, start: str | None, end: str | None) -> tuple[list[str], list[Any]]:
    return given_terms(
        ("m.session = ?", session), ("m.event_at >= ?", start), ("m.event_at <= ?", end)
    )


def rows_to_timeline(rows: list[Any], facts: list[Fact], *, ranked: bool) -> list[TimelineRow]:
    """The rows of a timeline read (``CONTEXT_COLS``, ``rank`` if ``ranked``) with their facts."""
    return [
        TimelineRow(
            fact,
            r["m_event_at"],
            r["m_session"],
            None if r["m_position"] is None else int(r["m_position"]),
            float(r["rank"]) if ranked else None,
        )
        for fact, r in zip(facts, rows, strict=True)
    ]


class TimelineQueries(StorePart):
    """The timeline's reads, the SQLite store's ``store.timeline`` (PostgreSQL's is
    :class:`~embornal.storage.postgres.timeline.PgTimeline`, this with its own search)."""

    def _timeline(
        self, sql: str, params: Sequence[Any], vis: Any, *, ranked: bool = False
    ) -> list[TimelineRow]:
        rows = self._store._rows(sql, params)
        return rows_to_timeline(rows, self._store._facts(rows, vis), ranked=ranked)

    def timeline_rows(
        self,
        scope: ReadScope,
        *,
        session: str | None,
        start: str | None,
        end: str | None,
        limit: int,
        descending: bool = False,
        include_forgotten: bool = False,
    ) -> list[TimelineRow]:
        vis = self._store._scopes.get(scope)
        live = _KEPT if include_forgotten else LIVE
        d = " DESC" if descending else ""
        where, params = filters(session, start, end)
        index = "memory_protocol_session" if session is not None else "memory_protocol_event"
        known = self._timeline(
            f"SELECT {FACT_COLS}, {CONTEXT_COLS} FROM memory_protocol m INDEXED BY {index} "
            "JOIN facts f ON f.id = m.fact_id JOIN paths p ON p.id = f.path_id "
            f"WHERE m.event_at IS NOT NULL AND {' AND '.join([*where, live])} AND ({vis.sql}) "
            f"ORDER BY m.event_at{d}, m.session_position{d}, f.seq{d} LIMIT ?",
            (*params, *vis.params, limit),
            vis,
        )
        if start is not None or end is not None or len(known) >= limit:
            return known
        if session is not None:  # one session's unknown times, by position
            sql = (
                f"SELECT {FACT_COLS}, {CONTEXT_COLS} FROM memory_protocol m INDEXED BY "
                "memory_protocol_session JOIN facts f ON f.id = m.fact_id "
                "JOIN paths p ON p.id = f.path_id WHERE m.session = ? AND m.event_at IS NULL "
                f"AND {live} AND ({vis.sql}) ORDER BY m.session_position{d}, f.seq{d} LIMIT ?"
            )
            params = [session]
        else:  # walked from the facts in record order, stopping at the limit
            sql = (
                f"SELECT {FACT_COLS}, {CONTEXT_COLS} FROM facts f CROSS JOIN memory_protocol m "
                "ON m.fact_id = f.id JOIN paths p ON p.id = f.path_id "
                f"WHERE m.event_at IS NULL AND {live} AND ({vis.sql}) ORDER BY f.seq{d} LIMIT ?"
            )
            params = []
        unknown = self._timeline(sql, (*params, *vis.params, limit - len(known)), vis)
        return known + unknown

    def history_search_rows(
        self,
        terms: Sequence[str],
        scope: ReadScope,
        *,
        session: str | None,
        start: str | None,
        end: str | None,
        limit: int,
    ) -> list[TimelineRow]:
        vis = self._store._scopes.get(scope)
        where, params = filters(session, start, end)
        return self._search(terms, vis, (where, params), limit)

    def _search(
        self, terms: Sequence[str], vis: Visibility, window: tuple[list[str], list[Any]], limit: int
    ) -> list[TimelineRow]:
        """:meth:`history_search_rows` among the memories ``window`` (its terms over ``m``
        and their parameters, :func:`filters`) and ``vis`` keep: FTS5's match and bm25."""
        where, params = window
        return self._timeline(
            f"SELECT {FACT_COLS}, {CONTEXT_COLS}, bm25(facts_fts) AS rank FROM facts_fts "
            "JOIN facts f ON f.seq = facts_fts.rowid JOIN memory_protocol m ON m.fact_id = f.id "
            f"JOIN paths p ON p.id = f.path_id WHERE facts_fts MATCH ? AND "
            f"{' AND '.join([*where, LIVE])} AND ({vis.sql}) ORDER BY rank, f.seq DESC LIMIT ?",
            (fts_query(list(terms)), *params, *vis.params, limit),
            vis,
            ranked=True,
        )

    def session_rows(
        self, scope: ReadScope, session: str, low: int, high: int, *, limit: int
    ) -> list[TimelineRow]:
        vis = self._store._scopes.get(scope)
        return self._timeline(
            f"SELECT {FACT_COLS}, {CONTEXT_COLS} FROM memory_protocol m INDEXED BY "
            "memory_protocol_session JOIN facts f ON f.id = m.fact_id "
            "JOIN paths p ON p.id = f.path_id WHERE m.session = ? AND m.session_position "
            f"BETWEEN ? AND ? AND {LIVE} AND ({vis.sql}) ORDER BY m.session_position, f.seq "
            "LIMIT ?",
            (session, low, high, *vis.params, limit),
            vis,
        )

    def context_rows(self, fact_ids: Sequence[str], scope: ReadScope) -> list[TimelineRow]:
        if not fact_ids:
            return []
        vis = self._store._scopes.get(scope)
        marks = ", ".join("?" * len(fact_ids))
        return self._timeline(
            f"SELECT {FACT_COLS}, {CONTEXT_COLS} FROM facts f LEFT JOIN memory_protocol m "
            f"ON m.fact_id = f.id JOIN paths p ON p.id = f.path_id WHERE f.id IN ({marks}) "
            f"AND {LIVE} AND ({vis.sql}) ORDER BY f.seq",
            (*fact_ids, *vis.params),
            vis,
        )
