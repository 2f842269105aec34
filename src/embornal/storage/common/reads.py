"""The present reads that both stores make the same way, written once (decision 0149, as 0119
wrote the past reads): facts by id and by path, an id's prefix, the tags that decide
access, a fact's folded state, the access rules and tokens, the paths below one, the
staleness inputs, and ``find``, keyword and vector search around the store's own query
and indexes. Their SQL has ``?`` placeholders and runs through the store's row reader
(PostgreSQL's rewrites it, :func:`embornal.storage.postgres.db.pg_sql`); what each store
spells or reaches its own way is one of its methods: :meth:`StoreReads._live` (SQLite's
clock function, PostgreSQL's inlined time), :meth:`StoreReads._ids_in` (a list of ``?``
or one bound array), :attr:`StoreReads._ALWAYS` (``1``, ``TRUE``),
:meth:`StoreReads._kind_sql` (a view per kind, or ``jsonb`` terms),
:meth:`StoreReads._keyword_rows` and :meth:`StoreReads._nearest_rows` (its keyword and
vector indexes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.facts.tags import Tag
from embornal.errors import AmbiguousId, NotFound
from embornal.hints import TYPE_CHECKING, Any
from embornal.storage.common import kind_views
from embornal.storage.common.access import Among, ScopeCache, Visibility, Where
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.sqlite import access_reads as access

if TYPE_CHECKING:
    from embornal.domain.access.rules import Rule
    from embornal.domain.events import Event
    from embornal.domain.facts.aggregate import FactState
    from embornal.domain.facts.attributes import Condition
    from embornal.domain.facts.fact import Fact
    from embornal.storage.contract.store import PathRow, SpineRow

__all__ = ["StoreReads"]

#: The columns of a fact read now: its row and its tags.


class StoreReads:
    """The shared present reads, mixed into either store (its ``_rows``, scopes, live
    filter and id binding)."""

    _scopes: ScopeCache
    #: A condition every row meets, as the store's SQL writes it.
    _ALWAYS = "1"

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:  # pragma: no cover
        raise NotImplementedError

    def _live(self) -> str:  # pragma: no cover
        """Live now, over the alias ``f``: neither forgotten nor superseded, and its
        lifetime not run out."""
        raise NotImplementedError

    def _ids_in(self, fact_ids: Sequence[str]) -> tuple[str, tuple[Any, ...]]:
        """``f.id`` among ``fact_ids``: the SQL and its parameters."""
        raise NotImplementedError  # pragma: no cover

    def _visible_ids(self, fact_ids: Sequence[str], vis: Visibility) -> set[str]:
        raise NotImplementedError  # pragma: no cover

    def stream(self, stream_id: str) -> list[Event]:  # pragma: no cover
        raise NotImplementedError

    def _kind_sql(
        self, kind: str, conditions: Sequence[Condition], where: str
    ) -> tuple[str, list[Any]]:
        """The query of the live facts of ``kind`` meeting every condition and ``where``
        (SQL over ``f`` and ``p``, its parameters after the conditions'), oldest first, at
        most a ``LIMIT ?`` last; and the conditions' parameters."""
        raise NotImplementedError  # pragma: no cover

    def _keyword_rows(self, terms: list[str], candidates: int, among: Among) -> list[Any]:
        """The rows (the fact columns and ``rank``, lower is better) of the facts ``among``
        keeps matching any of ``terms``, best first, at most ``candidates``."""
        raise NotImplementedError  # pragma: no cover

    def _nearest_rows(
        self, query: bytes, candidates: int, among: Among, fact_cols: str = FACT_COLS
    ) -> list[Any]:
        """The rows (``fact_cols`` and ``sim``) of the facts ``among`` keeps nearest to
        ``query``, best first, at most ``candidates`` (none without a vector index)."""
        raise NotImplementedError  # pragma: no cover

    def _recent_of(
        self, under: str | None, where: str, params: Sequence[Any]
    ) -> Callable[[int], list[Any]] | None:
        """The first read of :meth:`strongest` at or below ``under`` (``where`` and
        ``params``: its filter), when the store has one faster than the plain order (None:
        it has not)."""
        return None

    def _under_sql(self, under: str | None) -> Where:
        """At or below the path ``under`` (None or ``/``: anywhere), over ``p``: the SQL and
        its parameters."""
        if under is None or under == "/":
            return self._ALWAYS, ()
        return "(p.path = ? OR (p.path > ? AND p.path < ?))", (under, under + "/", under + "0")

    # -- facts ------------------------------------------------------------------------

    def _facts(self, rows: list[Any], vis: Visibility) -> list[Fact]:
        """Facts for a reader of ``vis``: a successor it may not read is not named."""
        if not rows:
            return []
        successors = {r["superseded_by"] for r in rows if r["superseded_by"]}
        hidden = successors - self._visible_ids(sorted(successors), vis)
        return kind_views.facts_from_rows(rows, None, hidden)  # tags: the rows' tag_text

    def _scored(self, rows: list[Any], vis: Visibility, score: str) -> list[tuple[Fact, float]]:
        """The facts of ``rows`` for a reader of ``vis``, each with its column ``score``."""
        facts = self._facts(rows, vis)
        return [(fact, float(r[score])) for fact, r in zip(facts, rows, strict=True)]

    def effective_tags(self, fact_id: str) -> list[tuple[Tag, str | None]]:
        """The tags that decide access, each with the path it came from (None: the fact)."""
        rows = self._rows(
            "SELECT e.key, e.value, p.path FROM effective_fact_tags e "
            "LEFT JOIN paths p ON p.id = e.source_path_id WHERE e.fact_id = ? ORDER BY e.key",
            (fact_id,),
        )
        return [(Tag(r[0], r[1]), r[2]) for r in rows]

    def resolve_id(self, prefix: str, scope: ReadScope = EVERYTHING) -> str:
        """The one visible fact id starting with ``prefix`` (already upper-cased)."""
        vis = self._scopes.get(scope)
        rows = self._rows(
            f"SELECT f.id FROM facts f WHERE f.id >= ? AND f.id < ? AND ({vis.sql}) "
            "ORDER BY f.id LIMIT 2",
            (prefix, prefix + "\x7f", *vis.params),
        )
        if not rows:
            raise NotFound(
                f"no fact with id {prefix}",
                hint="Find ids with `embornal memory recall` or `embornal memory cat PATH`.",
            )
        if len(rows) > 1:
            raise AmbiguousId(f"id prefix {prefix} matches more than one fact")
        return str(rows[0][0])

    def get_fact(self, fact_id: str, scope: ReadScope = EVERYTHING) -> Fact | None:
        facts = self.get_facts([fact_id], scope)
        return facts[0] if facts else None

    def get_facts(self, fact_ids: Sequence[str], scope: ReadScope = EVERYTHING) -> list[Fact]:
        if not fact_ids:
            return []
        vis = self._scopes.get(scope)
        among, ids = self._ids_in(fact_ids)
        rows = self._rows(
            f"SELECT {FACT_COLS} FROM facts f JOIN paths p ON p.id = f.path_id "
            f"WHERE {among} AND ({vis.sql})",
            (*ids, *vis.params),
        )
        by_id = {f.id: f for f in self._facts(rows, vis)}
        return [by_id[i] for i in fact_ids if i in by_id]

    def facts_at(
        self, path: str, scope: ReadScope = EVERYTHING, *, include_inactive: bool = False
    ) -> list[Fact]:
        vis = self._scopes.get(scope)
        live = "TRUE" if include_inactive else self._live()
        rows = self._rows(
            f"SELECT {FACT_COLS} FROM facts f JOIN paths p ON p.id = f.path_id "
            f"WHERE p.path = ? AND {live} AND ({vis.sql}) ORDER BY f.created_at, f.id",
            (path, *vis.params),
        )
        return self._facts(rows, vis)

    def find_by_kind(
        self,
        kind: str,
        conditions: Sequence[Condition],
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        limit: int = 1000,
    ) -> list[Fact]:
        """Live facts of ``kind`` meeting ``conditions``, through the store's
        :meth:`_kind_sql`."""
        vis = self._scopes.get(scope)
        under_sql, under_params = self._under_sql(under)
        sql, params = self._kind_sql(kind, conditions, f"{under_sql} AND ({vis.sql})")
        return self._facts(self._rows(sql, (*params, *under_params, *vis.params, limit)), vis)

    def keyword_search(
        self,
        terms: list[str],
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        include_superseded: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Facts matching any of ``terms``, best bm25 first, with their bm25 value (the
        store's keyword index: :meth:`_keyword_rows`)."""
        if not terms:
            return []
        vis = self._scopes.get(scope)
        live = "f.deleted_at IS NULL" if include_superseded else self._live()
        rows = self._keyword_rows(terms, candidates, Among(vis, scope.everything, under, live))
        return self._scored(rows, vis, "rank")

    def vector_search(
        self,
        query: bytes,
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
    ) -> list[tuple[Fact, float]]:
        """Live facts nearest to ``query`` (float32 bytes), best first, with their cosine
        similarity (the store's vector index: :meth:`_nearest_rows`)."""
        vis = self._scopes.get(scope)
        among = Among(vis, scope.everything, under, self._live())
        return self._scored(self._nearest_rows(query, candidates, among), vis, "sim")

    def strongest(
        self, limit: int, now: str, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[Fact]:
        """Live facts ordered by strength at ``now`` (derived, never stored), from two
        index reads (:mod:`embornal.storage.common.strongest`; the first the store's own
        under a path, :meth:`_recent_of`)."""
        from embornal.storage.common.strongest import strongest_rows

        vis = self._scopes.get(scope)
        among = Among(vis, scope.everything, under, self._live())
        where, params = among.where(self._under_sql(under))
        rows = strongest_rows(
            self._rows,
            f"SELECT {FACT_COLS} FROM facts f JOIN paths p ON p.id = f.path_id",
            where,
            params,
            kind_views.stored_time(now),
            limit,
            self._recent_of(under, where, params),
        )
        return self._facts(rows, vis)

    def spine_rows(
        self, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[SpineRow]:
        """The staleness inputs of every live fact in scope, oldest first."""
        vis = self._scopes.get(scope)
        return kind_views.spine_rows(self._rows, vis, self._under_sql(under), self._live())

    def fact_state(self, fact_id: str) -> FactState | None:
        """The fact's state folded from its stream, at the stream's version, with the live
        fact that supersedes it (None: no such fact). Inside a transaction: as of it."""
        events = self.stream(fact_id)
        from embornal.domain.facts.aggregate import fold  # writes only: off the read path

        state = fold(events)
        if state is None:
            return None
        row = self._rows("SELECT superseded_by FROM facts WHERE id = ?", (fact_id,))
        successor = row[0][0] if row else None
        return replace(state, version=events[-1].version, superseded_by=successor)

    def doc_count(self) -> int:
        rows = self._rows("SELECT value FROM counters WHERE name = 'fts_docs'", ())
        return int(rows[0][0]) if rows else 0

    # -- paths ------------------------------------------------------------------------

    def path_id(self, path: str) -> int | None:
        rows = self._rows("SELECT id FROM paths WHERE path = ?", (path,))
        return int(rows[0][0]) if rows else None

    def subtree(self, path: str, scope: ReadScope = EVERYTHING) -> list[PathRow]:
        """Every path at or below ``path`` that holds a visible live fact, or leads to one.

        ``fact_count`` counts visible live facts of the path itself; ``child_count``
        counts its visible children.
        """
        from embornal.storage.sqlite.subtree import subtree_rows  # tree only: off recall's path

        root_id = self.path_id(path)
        if root_id is None:
            return []
        return subtree_rows(self._rows, root_id, self._live(), self._scopes.get(scope))

    # -- access -----------------------------------------------------------------------

    def rules(self) -> list[Rule]:
        return access.rules(self._rows)

    def inherited_path_tags(self, ancestors: Sequence[str], owner: str) -> dict[str, str]:
        """Tags a fact of ``owner`` at the last of ``ancestors`` would inherit."""
        return access.inherited_path_tags(self._rows, ancestors, owner)

    def policy_version(self) -> int:
        return access.policy_version(self._rows)

    def token_by_hash(self, token_hash: str) -> Mapping[str, Any] | None:
        return access.token_by_hash(self._rows, token_hash)

    def tokens(self, *, include_inactive: bool) -> list[Mapping[str, Any]]:
        return access.tokens(self._rows, include_inactive=include_inactive)
