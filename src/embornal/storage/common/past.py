"""The memory as it was at one past time: the reads of either store at ``at``, from the
history tables (:mod:`embornal.storage.common.history`, decisions 0041, 0100), never a replay;
written once for both backends (decision 0119): what differs is the store's
:class:`PastDialect` (:data:`SQLITE` here, ``postgres.past.PG`` for PostgreSQL), and the SQL
itself runs through the store's row reader (PostgreSQL's rewrites ``?``, ``TRUE``, ``instr``
and the like, :func:`embornal.storage.postgres.db.pg_sql`).

A fact's row at ``at`` is its row of ``facts`` (what never changes: path, content, kind,
owner, creation) with its version at ``at`` (state, attributes, the versioned columns) and
its strength signals then (none: as stored). Each lookup is one descending seek of the
fact's rows in ``fact_versions`` and ``fact_signals``: the last row recorded at or before
``at``. A fact not yet stored then has none and is absent; a purged fact is absent at every
time (its past is erased too). Access is today's: the read scope is compiled over the
current ``facts`` and tags (decision 0042), so looking back never shows what the subject
cannot read now. Keyword and vector search rank over each backend's own index as it is now
(the dialect's keyword rows, the store's nearest rows), limited to the facts live at
``at``.

``at`` is inlined into the SQL as the literal text of :func:`format_time` (checked
against its fixed shape), which keeps the queries of the store reusable as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.clock import format_time
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import OWNER_KEY, Tag
from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS
from embornal.storage.common import context, history, kind_views
from embornal.storage.common.access import Among, ScopeCache, Visibility, Where
from embornal.storage.contract.store import PathRow
from embornal.storage.sqlite.subtree import subtree_rows

if TYPE_CHECKING:
    from embornal.domain.facts.attributes import Condition
    from embornal.domain.spine.justification import EvidenceRef

__all__ = ["SQLITE", "Past", "PastDialect", "SqlitePast"]

_SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


class _Store(Protocol):
    """What the past reads use of a store (either backend's)."""

    _scopes: ScopeCache

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]: ...
    def _visible_ids(self, fact_ids: Sequence[str], vis: Visibility) -> set[str]: ...
    def _under_sql(self, under: str | None) -> Where: ...
    def _nearest_rows(
        self, query: bytes, candidates: int, among: Among, fact_cols: str = ...
    ) -> list[Any]: ...
    def has_vector_index(self) -> bool: ...
    def doc_count(self) -> int: ...
    def term_df(self, terms: Sequence[str]) -> dict[str, int]: ...


class PastDialect(Protocol):
    """What the past reads of one backend spell or reach in their own way."""

    def json_value(self, column: str, field: str) -> str:
        """The SQL of ``field``'s typed value in the JSON object ``column`` (a number a
        number, not its text)."""
        ...

    def days_since(self, anchor: str) -> str:
        """The SQL of the days from ``anchor`` (a stored time) to the instant bound as one
        ``?``, never below 0, as a float."""
        ...

    def at_most(self, value: str, bound: str) -> str:
        """The SQL of the smaller of ``value`` and ``bound``."""
        ...

    def kind_conditions(
        self, kind: str, conditions: Sequence[Condition], live: str, attributes: str
    ) -> Where:
        """``find``'s WHERE terms over the JSON ``attributes`` and their parameters."""
        ...

    def keyword_rows(
        self, store: Any, terms: list[str], candidates: int, among: Among
    ) -> list[Any]:
        """Rows (``id``, ``rank``) of the facts ``among`` keeps matching any of ``terms``,
        best first, at most ``candidates``, by the backend's keyword index as it is now."""
        ...


class _Sqlite:
    """SQLite's spellings: ``json_extract``, ``julianday`` and FTS5."""

    def json_value(self, column: str, field: str) -> str:
        return f"json_extract({column}, '$.{field}')"

    def days_since(self, anchor: str) -> str:
        return f"max(0.0, julianday(?) - julianday({anchor}))"

    def at_most(self, value: str, bound: str) -> str:
        return f"min({value}, {bound})"

    def kind_conditions(
        self, kind: str, conditions: Sequence[Condition], live: str, attributes: str
    ) -> Where:
        where, params = kind_views.conditions_sql(kind, conditions, live, attributes)
        return where, tuple(params)

    def keyword_rows(
        self, store: Any, terms: list[str], candidates: int, among: Among
    ) -> list[Any]:
        from embornal.domain.recall.text import fts_query
        from embornal.storage.sqlite import keyword

        return keyword.ranked_rows(
            store._rows, fts_query(terms), candidates, among, fact_cols="f.id AS id"
        )


#: SQLite's dialect of the past reads.
SQLITE: PastDialect = _Sqlite()
_SIGNALS = {
    "f.last_recall_at": "s.last_recall_at AS last_recall_at",
    "f.recall_count": "coalesce(s.recall_count, 0) AS recall_count",
    "f.stability_days": f"coalesce(s.stability_days, {INITIAL_STABILITY_DAYS!r}) AS stability_days",
    "f.attributes": "v.attributes AS attributes",
    "f.kind_version": "v.kind_version AS kind_version",
}
#: The largest decay exponent computed (``exp`` of less underflows on PostgreSQL): a
#: fact weaker than ``exp(-700)`` is as weak as any other, the latest first.
_MAX_RATE = "700.0"


def _columns(fact_cols: str, dialect: PastDialect) -> str:
    """The store's fact columns, each that changes over time taken from the past rows."""
    out = []
    for col in (c.strip() for c in fact_cols.split(",")):
        name = col.removeprefix("f.")
        if col in _SIGNALS:
            out.append(_SIGNALS[col])
        elif col.startswith("f.") and name in history.VERSIONED_COLUMNS:
            out.append(f"{dialect.json_value('v.fields', name)} AS {name}")
        else:
            out.append(col)
    return ", ".join(out)


class Past:
    """The reads of ``store`` (either backend's, whose row reader, scope cache and indexes
    it shares) at ``at``, with the store's fact columns and its ``under`` filter, in the
    backend's ``dialect``; see the module. Satisfies ``PastReads``."""

    #: The backend's spellings (a subclass names its own).
    dialect: PastDialect = SQLITE

    def __init__(self, store: _Store, at: datetime, fact_cols: str) -> None:
        self._store = store
        self._under_sql = store._under_sql
        self.at = at
        t = format_time(at)
        if not _SHAPE.match(t):  # pragma: no cover - format_time's shape
            raise ValueError(f"{t!r} is not a stored time")
        self._t = t
        self._cols = _columns(fact_cols, self.dialect)
        self._version = (
            "(SELECT {c} FROM fact_versions x WHERE x.fact_id = f.id AND "
            f"x.valid_from <= '{t}' ORDER BY x.valid_from DESC LIMIT 1)"
        )
        self._joins = (
            f"JOIN fact_versions v ON v.fact_id = f.id AND v.valid_from = "
            f"{self._version.format(c='x.valid_from')} "
            "LEFT JOIN fact_signals s ON s.fact_id = f.id AND s.valid_from = "
            "(SELECT y.valid_from FROM fact_signals y WHERE y.fact_id = f.id AND "
            f"y.valid_from <= '{t}' ORDER BY y.valid_from DESC LIMIT 1)"
        )
        #: Live at ``at`` over the alias ``f`` alone (no join), for the store's own queries:
        #: active then, and its lifetime not run out by then.
        expires = self._version.format(c="json_extract(x.fields, '$.expires_at')")
        self.live = (
            f"f.purged_at IS NULL AND {self._version.format(c='x.state')} = 'active' AND "
            f"coalesce({expires} > '{t}', TRUE)"
        )
        #: The same over the joined version ``v``.
        self._active = (
            f"v.state = 'active' AND coalesce(json_extract(v.fields, '$.expires_at') > '{t}', TRUE)"
        )

    # -- rows ---------------------------------------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._store._rows(sql, params)

    def _select(self, where: str, params: Sequence[Any], tail: str = "") -> list[Any]:
        return self._rows(
            f"SELECT {self._cols} FROM facts f JOIN paths p ON p.id = f.path_id {self._joins} "
            f"WHERE f.purged_at IS NULL AND {where} {tail}",
            params,
        )

    def _tags(self, fact_ids: Sequence[str]) -> dict[str, tuple[Tag, ...]]:
        out: dict[str, list[Tag]] = {}
        for start in range(0, len(fact_ids), 500):
            chunk = list(fact_ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            for r in self._rows(
                f"SELECT fact_id, key, value FROM fact_tag_versions WHERE fact_id IN ({marks}) "
                f"AND valid_from <= '{self._t}' AND (valid_to IS NULL OR valid_to > '{self._t}') "
                "ORDER BY key",
                chunk,
            ):
                out.setdefault(r[0], []).append(Tag(r[1], r[2]))
        return {k: tuple(v) for k, v in out.items()}

    def _facts(self, rows: list[Any], scope: ReadScope) -> list[Fact]:
        if not rows:
            return []
        vis = self._store._scopes.get(scope)
        tags = self._tags([r["id"] for r in rows])
        successors = {r["superseded_by"] for r in rows if r["superseded_by"]}
        hidden = successors - self._store._visible_ids(sorted(successors), vis)
        return [
            kind_views.fact_from_row(r, tags.get(r["id"], ()), r["superseded_by"] in hidden)
            for r in rows
        ]

    def _by_ids(self, ids: Sequence[str], scope: ReadScope, where: str = "TRUE") -> list[Fact]:
        if not ids:
            return []
        vis = self._store._scopes.get(scope)
        marks = ",".join("?" * len(ids))
        rows = self._select(f"f.id IN ({marks}) AND {where} AND ({vis.sql})", (*ids, *vis.params))
        by_id = {f.id: f for f in self._facts(rows, scope)}
        return [by_id[i] for i in ids if i in by_id]

    # -- facts --------------------------------------------------------------------------

    def get_facts(self, fact_ids: Sequence[str], scope: ReadScope = EVERYTHING) -> list[Fact]:
        """The facts among ``fact_ids`` that were stored by ``at``, in any state then."""
        return self._by_ids(fact_ids, scope)

    def get_fact(self, fact_id: str, scope: ReadScope = EVERYTHING) -> Fact | None:
        found = self.get_facts([fact_id], scope)
        return found[0] if found else None

    def facts_at(
        self, path: str, scope: ReadScope = EVERYTHING, *, include_inactive: bool = False
    ) -> list[Fact]:
        vis = self._store._scopes.get(scope)
        live = "TRUE" if include_inactive else self._active
        rows = self._select(
            f"p.path = ? AND {live} AND ({vis.sql})",
            (path, *vis.params),
            "ORDER BY f.created_at, f.id",
        )
        return self._facts(rows, scope)

    def strongest(
        self, limit: int, now: str, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[Fact]:
        """Facts live at ``at`` by their strength at ``now`` (the service passes ``at``),
        from their signals then: ``exp(-days / stability)``, then the latest stored."""
        d = self.dialect
        among = Among(self._store._scopes.get(scope), scope.everything, under, self._active)
        where, params = among.where(self._under_sql(under))
        days = d.days_since("coalesce(s.last_recall_at, f.created_at)")
        rate = f"{days} / coalesce(s.stability_days, {INITIAL_STABILITY_DAYS!r})"
        rows = self._select(
            where,
            (*params, now, limit),
            f"ORDER BY exp(-{d.at_most(rate, _MAX_RATE)}) DESC, f.seq DESC LIMIT ?",
        )
        return self._facts(rows, scope)

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The neighbours on the path among the facts live at ``at``."""
        vis = self._store._scopes.get(scope)
        return context.neighbours_of(
            self._rows, fact_ids, reach, vis.sql, vis.params, live=self.live
        )

    def effective_tags(self, fact_id: str) -> list[tuple[Tag, str | None]]:
        """The tags that decided access at ``at``: the fact's own then, else the nearest
        tag its owner had set on a path above it then (an owner tag never reaches it)."""
        t = self._t
        during = f"valid_from <= '{t}' AND (valid_to IS NULL OR valid_to > '{t}')"
        own = {
            r[0]: r[1]
            for r in self._rows(
                f"SELECT key, value FROM fact_tag_versions WHERE fact_id = ? AND {during}",
                (fact_id,),
            )
        }
        found: dict[str, tuple[str, str | None]] = {k: (v, None) for k, v in own.items()}
        rows = self._rows(
            "SELECT pt.key, pt.value, p.path FROM facts f "
            "JOIN path_closure c ON c.descendant_id = f.path_id "
            "JOIN path_tag_versions pt ON pt.path_id = c.ancestor_id AND pt.tagger = f.owner "
            f"JOIN paths p ON p.id = pt.path_id WHERE f.id = ? AND pt.key <> ? AND pt.{during} "
            "ORDER BY c.ancestor_depth",
            (fact_id, OWNER_KEY),
        )
        for key, value, path in rows:  # the nearest path last: it wins
            if key not in own:
                found[key] = (value, path)
        return [(Tag(k, v), src) for k, (v, src) in sorted(found.items())]

    def evidence(self, fact_id: str) -> tuple[EvidenceRef, ...]:
        """The fact's evidence recorded by ``at``, oldest first."""
        from embornal.domain.spine.justification import EvidenceRef

        rows = self._rows(
            "SELECT evidence_type, value, note FROM fact_evidence WHERE fact_id = ? "
            f"AND recorded_at <= '{self._t}' ORDER BY seq",
            (fact_id,),
        )
        return tuple(EvidenceRef(r[0], r[1], r[2]) for r in rows)

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
        (the version's attributes, compared as the backend compares today's)."""
        where, params = self.dialect.kind_conditions(kind, conditions, self._active, "v.attributes")
        vis = self._store._scopes.get(scope)
        under_sql, under_params = self._under_sql(under)
        rows = self._select(
            f"{where} AND {under_sql} AND ({vis.sql})",
            (*params, *under_params, *vis.params, limit),
            "ORDER BY f.created_at, f.id LIMIT ?",
        )
        return self._facts(rows, scope)

    # -- paths ----------------------------------------------------------------------------

    def subtree(self, path: str, scope: ReadScope = EVERYTHING) -> list[PathRow]:
        """Every path at or below ``path`` that held a live fact in scope at ``at``, or
        led to one."""
        root = self._rows("SELECT id FROM paths WHERE path = ?", (path,))
        if not root:
            return []
        return subtree_rows(self._rows, int(root[0][0]), self.live, self._store._scopes.get(scope))

    # -- search ---------------------------------------------------------------------------

    def keyword_search(
        self,
        terms: list[str],
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        include_superseded: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Facts live at ``at`` matching any of ``terms``, best BM25 first (the backend's
        keyword index and its statistics as they are now)."""
        if not terms:
            return []
        vis = self._store._scopes.get(scope)
        live = self.live
        if include_superseded:
            live = live.replace("= 'active'", "IN ('active', 'superseded')")
        among = Among(vis, scope.everything, under, live)
        rows = self.dialect.keyword_rows(self._store, terms, candidates, among)
        facts = {f.id: f for f in self._by_ids([r["id"] for r in rows], EVERYTHING)}
        return [(facts[r["id"]], float(r["rank"])) for r in rows if r["id"] in facts]

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        return self._store.term_df(terms)

    def doc_count(self) -> int:
        return self._store.doc_count()

    def vector_search(
        self,
        query: bytes,
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
    ) -> list[tuple[Fact, float]]:
        """Facts live at ``at`` nearest to ``query`` (their vectors as they are now)."""
        among = Among(self._store._scopes.get(scope), scope.everything, under, self.live)
        rows = self._store._nearest_rows(query, candidates, among, "f.seq, f.id")
        facts = {f.id: f for f in self._by_ids([r["id"] for r in rows], EVERYTHING)}
        return [(facts[r["id"]], float(r["sim"])) for r in rows if r["id"] in facts]

    def has_vector_index(self) -> bool:
        return self._store.has_vector_index()

    def reads_aside(self) -> bool:  # a past recall's parts run one after the other
        return False


#: The SQLite store's past reads (:meth:`~embornal.storage.sqlite.store.SqliteStore.as_of`).
SqlitePast = Past
