"""The memory as it was at one past time on PostgreSQL (decisions 0041, 0100): SQLite's
reads of the history tables (:class:`~embornal.storage.past.SqlitePast`, their SQL through
the dialect), with this backend's own where SQLite's are its own: a versioned column read
as the typed JSON value, strength ordered in Python, the neighbours', ``find``'s, keyword
and vector reads over this backend's indexes, each limited to the facts live at ``at``."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from embornal.domain.scope import EVERYTHING, ReadScope
from embornal.storage import history
from embornal.storage.contract import PathRow
from embornal.storage.past import SqlitePast, UnderSql
from embornal.storage.strongest import _days
from embornal.storage.subtree import subtree_rows

if TYPE_CHECKING:
    from embornal.domain.fact_attributes import Condition
    from embornal.domain.facts import Fact

__all__ = ["PgPast"]


class _PgStore(Protocol):
    """What this module uses of the PostgreSQL store beyond what ``SqlitePast`` does."""

    def neighbours_where(
        self, fact_ids: Sequence[str], reach: int, scope: ReadScope, live: str
    ) -> dict[str, tuple[tuple[str, ...], ...]]: ...

    def nearest_where(
        self, query: bytes, candidates: int, scope: ReadScope, under: str | None, live: str
    ) -> list[Any]: ...


_VERSIONED = re.compile(r"json_extract\(v\.fields, '\$\.(\w+)'\) AS (\w+)")


class PgPast(SqlitePast):
    """The reads of a :class:`~embornal.storage.postgres.store.PostgresStore` at ``at``;
    satisfies ``PastReads``."""

    def __init__(self, store: _PgStore, at: datetime, fact_cols: str, under_sql: UnderSql) -> None:
        super().__init__(store, at, fact_cols, under_sql)  # type: ignore[arg-type]
        self._pg = store
        # A versioned column as its JSON value (``->``: a number stays a number), not text.
        self._cols = _VERSIONED.sub(r"(v.fields::jsonb -> '\1') AS \2", self._cols)
        assert all(c in history.VERSIONED_COLUMNS for c in _VERSIONED.findall(self._cols))

    def strongest(
        self, limit: int, now: str, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[Fact]:
        """Facts live at ``at`` by their strength at ``now``, from their signals then (every
        such fact read, ordered here: a past read is rare)."""
        from embornal.storage.kind_views import stored_time

        vis = self._store._scopes.get(scope)
        under_sql, under_params = self._under_sql(under)
        rows = self._select(f"{self._active} AND {under_sql} AND ({vis.sql})",
                            (*under_params, *vis.params))  # fmt: skip
        moment = stored_time(now)

        def key(r: Any) -> tuple[float, int]:
            return (-math.exp(-_days(r, moment) / float(r["stability_days"])), -int(r["seq"]))

        return self._facts(sorted(rows, key=key)[:limit], scope)

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        return self._pg.neighbours_where(fact_ids, reach, scope, self.live)

    def find_by_kind(
        self,
        kind: str,
        conditions: Sequence[Condition],
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        limit: int = 1000,
    ) -> list[Fact]:
        """The facts of ``kind`` live at ``at`` whose attributes then met every condition
        (the version's attributes compared as ``jsonb``, as today's are)."""
        from embornal.storage.postgres.kinds import conditions_sql

        where, params = conditions_sql(kind, conditions, self._active, "v.attributes")
        vis = self._store._scopes.get(scope)
        under_sql, under_params = self._under_sql(under)
        rows = self._select(
            f"{where} AND {under_sql} AND ({vis.sql})",
            (*params, *under_params, *vis.params, limit),
            "ORDER BY f.created_at, f.id LIMIT ?",
        )
        return self._facts(rows, scope)

    def subtree(self, path: str, scope: ReadScope = EVERYTHING) -> list[PathRow]:
        root = self._rows("SELECT id FROM paths WHERE path = ?", (path,))
        if not root:
            return []
        return subtree_rows(self._rows, int(root[0][0]), self.live, self._store._scopes.get(scope))

    def keyword_search(
        self,
        terms: list[str],
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        include_superseded: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Facts live at ``at`` matching any of ``terms``, best BM25 first (statistics of
        the index as it is now)."""
        from embornal.storage.postgres import keyword

        if not terms:
            return []
        vis = self._store._scopes.get(scope)
        live = self.live
        if include_superseded:
            live = live.replace("= 'active'", "IN ('active', 'superseded')")
        under_sql, under_params = self._under_sql(under)
        rows = keyword.ranked_rows(
            self._rows,
            terms,
            candidates,
            (f"{live} AND {under_sql} AND ({vis.sql})", (*under_params, *vis.params)),
            "f.id AS id",
        )
        facts = {f.id: f for f in self._by_ids([r["id"] for r in rows], EVERYTHING)}
        return [(facts[r["id"]], float(r["rank"])) for r in rows if r["id"] in facts]

    def vector_search(
        self,
        query: bytes,
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
    ) -> list[tuple[Fact, float]]:
        """Facts live at ``at`` nearest to ``query`` (their vectors as they are now)."""
        rows = self._pg.nearest_where(query, candidates, scope, under, self.live)
        facts = {f.id: f for f in self._by_ids([r["id"] for r in rows], EVERYTHING)}
        return [(facts[r["id"]], float(r["sim"])) for r in rows if r["id"] in facts]
