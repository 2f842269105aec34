"""The memory list and the whole-memory graph (decision 0159), read by the database: the
filters, the count, the order and the page of a list are SQL, and so are the degrees of
the graph's facts; Python only builds the facts of one page.

The SQL has ``?`` placeholders and is written once for both stores (PostgreSQL rewrites it,
:func:`embornal.storage.postgres.db.pg_sql`); what each spells its own way is a method of
the store: the live filter (``_live``) and the days from a fact's strength anchor to a
moment (:meth:`ListingQueries._age_days`: SQLite's ``julianday``, PostgreSQL overrides it).

A fact's strength at ``now`` is ``exp(-d / S)`` (:mod:`embornal.domain.spine.strength`), so a
bound on it is a bound on the rate ``d / S``, and the strongest first is the smallest
rate first: no strength is computed in Python to filter or sort.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.part import StorePart, given_terms
from embornal.storage.contract.listing import LIST_SORTS, LinkMap, ListFilter, ListPage, ListRow

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope

__all__ = ["ListingQueries"]

_NOTHING = "1 = 0"


def _under(column: str, under: str | None) -> tuple[str | None, tuple[Any, ...]]:
    if under is None or under == "/":
        return None, ()
    return f"({column} = ? OR ({column} > ? AND {column} < ?))", (under, under + "/", under + "0")


class ListingQueries(StorePart):
    """The list and graph reads, a part of either store (``store.listing``)."""

    def _rate(self, now: str) -> str:
        age = self._store._age_days(now)  # the store's spelling of it
        return f"(CASE WHEN {age} < 0 THEN 0 ELSE {age} END / f.stability_days)"

    def _list_where(self, where: ListFilter, now: str) -> tuple[list[str], list[Any]]:
        sql: list[str] = []
        params: list[Any] = []
        under, under_params = _under("p.path", where.under)
        if under is not None:
            sql.append(under)
            params += under_params
        terms, values = given_terms(
            ("f.kind = ?", where.kind),
            ("m.stage = ?", where.stage),
            ("m.tier = ?", where.tier),
            ("f.owner = ?", where.owner),
            ("f.confidence >= ?", where.min_confidence),
            ("f.confidence <= ?", where.max_confidence),
        )
        sql += terms
        params += values
        if where.tag is not None:
            sql.append(
                "EXISTS (SELECT 1 FROM fact_tags t WHERE t.fact_id = f.id AND t.key = ? "
                "AND t.value = ?)"
            )
            params += list(where.tag)
        rate = self._rate(now)
        low, high = where.min_strength, where.max_strength
        if low is not None and low > 0.0:  # exp(-rate) >= low
            sql.append(f"{rate} <= ?" if low < 1.0 else f"{rate} <= 0")
            params += [-math.log(low)] if low < 1.0 else []
        if high is not None and high < 1.0:  # exp(-rate) <= high
            sql.append(f"{rate} >= ?" if high > 0.0 else _NOTHING)
            params += [-math.log(high)] if high > 0.0 else []
        return sql, params

    def list_rows(
        self, where: ListFilter, scope: ReadScope, *, now: str, offset: int, limit: int
    ) -> ListPage:
        if where.sort not in LIST_SORTS:
            raise ValueError(f"sort must be one of {', '.join(LIST_SORTS)}")
        at = format_time(parse_time(now))  # fixed-width digits: safe inline
        vis = self._store._scopes.get(scope)
        conds, params = self._list_where(where, at)
        conds += [self._store._live(), f"({vis.sql})"]
        params += list(vis.params)
        body = (
            "FROM facts f JOIN paths p ON p.id = f.path_id "
            f"LEFT JOIN memory_protocol m ON m.fact_id = f.id WHERE {' AND '.join(conds)}"
        )
        total = int(self._store._rows(f"SELECT count(*) {body}", params)[0][0])
        if total == 0 or offset >= total or limit <= 0:
            return ListPage((), total)
        order = {
            "newest": "f.created_at DESC, f.seq DESC",
            "oldest": "f.created_at, f.seq",
            "strongest": f"{self._rate(at)}, f.seq DESC",
            "weakest": f"{self._rate(at)} DESC, f.seq",
            "path": "p.path, f.created_at, f.seq",
        }[where.sort]
        rows = self._store._rows(
            f"SELECT {FACT_COLS}, m.stage AS m_stage, m.tier AS m_tier {body} "
            f"ORDER BY {order} LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        facts = self._store._facts(rows, vis)
        return ListPage(
            tuple(ListRow(f, r["m_stage"], r["m_tier"]) for f, r in zip(facts, rows, strict=True)),
            total,
        )

    def link_map(
        self,
        scope: ReadScope,
        *,
        under: str | None = None,
        relation: str | None = None,
        limit: int,
    ) -> LinkMap:
        vis = self._store._scopes.get(scope)
        conds: list[str] = []
        params: list[Any] = list(vis.params)
        if relation is not None:
            conds.append("l.relation = ?")
            params.append(relation)
        a_under, a_params = _under("a.path", under)
        b_under, b_params = _under("b.path", under)
        if a_under is not None:
            conds.append(f"({a_under} OR {b_under})")
            params += [*a_params, *b_params]
        edges_where = f"WHERE {' AND '.join(conds)}" if conds else ""
        params.append(max(0, limit))
        rows = self._store._rows(  # one read: the totals, then the top facts, then their links
            "WITH v AS MATERIALIZED (SELECT f.id AS id, p.path AS path FROM facts f "
            f"JOIN paths p ON p.id = f.path_id WHERE {self._store._live()} AND ({vis.sql})), "
            "e AS MATERIALIZED (SELECT l.source_id AS s, l.relation AS r, l.target_id AS t "
            f"FROM fact_links l JOIN v a ON a.id = l.source_id JOIN v b ON b.id = l.target_id "
            f"{edges_where}), "
            "d AS MATERIALIZED (SELECT x.n AS n, count(*) AS deg FROM (SELECT s AS n FROM e "
            "UNION ALL SELECT t AS n FROM e) x GROUP BY x.n), "
            "top AS MATERIALIZED (SELECT n, deg FROM d ORDER BY deg DESC, n LIMIT ?) "
            "SELECT 0, CAST((SELECT count(*) FROM e) AS TEXT), "
            "CAST((SELECT count(*) FROM d) AS TEXT), NULL "
            "UNION ALL SELECT 1, n, CAST(deg AS TEXT), NULL FROM top "
            "UNION ALL SELECT 2, e.s, e.r, e.t FROM e JOIN top a ON a.n = e.s "
            "JOIN top b ON b.n = e.t",
            params,
        )
        totals = next(r for r in rows if int(r[0]) == 0)
        nodes = sorted(
            ((str(r[1]), int(r[2])) for r in rows if int(r[0]) == 1), key=lambda n: (-n[1], n[0])
        )
        edges = sorted((str(r[1]), str(r[2]), str(r[3])) for r in rows if int(r[0]) == 2)
        return LinkMap(tuple(nodes), tuple(edges), int(totals[2]), int(totals[1]))
