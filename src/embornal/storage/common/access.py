"""Compile a read scope into one SQL WHERE fragment over facts ``f``.

The service hands the store a backend-neutral :class:`~embornal.domain.access.scope.ReadScope`
(the subject's effective read rules); SQLite reads through the :class:`Visibility`
compiled from it here (cached per store, by the scope's value).

The fragment keeps a fact when some allow rule matches it and no deny rule
does. Every predicate is two-valued (never NULL), so ``NOT`` of a deny is safe.
Tag rules read the effective tag of the fact: its own tag when it has one with
that key, else the tag of the nearest tagged path above it (an owner tag on a
path never reaches a fact).

A scope with a viewer also keeps only the facts visible to it (decision 0038): the
``facts.visibility`` column (NULL: shared) and, for a restricted fact, its allow-list in
``fact_visibility_allow`` — the same rule as :func:`embornal.domain.access.scope.visible_to`.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain import paths as P
from embornal.domain.access.rules import ObjectPattern, Rule
from embornal.domain.access.scope import ReadScope, Viewer, read_scope
from embornal.domain.facts.tags import OWNER_KEY
from embornal.domain.records import record
from embornal.hints import Any

__all__ = [
    "ALL_VISIBLE",
    "Among",
    "ScopeCache",
    "Visibility",
    "compile_read_filter",
    "compile_scope",
]

Where = tuple[str, tuple[Any, ...]]


@record
class Visibility:
    """A WHERE fragment over the facts alias ``f`` and its parameters."""

    sql: str = "1"
    params: tuple[Any, ...] = ()

    @property
    def everything(self) -> bool:
        """Whether every fact passes: the caller reads the whole memory."""
        return self.sql == "1"


ALL_VISIBLE = Visibility()


@record
class Among:
    """The facts a search ranks: those ``live`` (SQL over ``f``) lets through, in the
    compiled scope ``vis``, at or below the path ``under`` (None: anywhere);
    ``everything``: the scope reads the whole memory (a ranked window need not widen for
    facts it hides)."""

    vis: Visibility
    everything: bool
    under: str | None
    live: str

    def where(self, under: Where) -> Where:
        """Liveness, ``under`` (the SQL over ``p`` of :attr:`under`, and its parameters)
        and the scope, as one WHERE fragment and its parameters."""
        sql, params = under
        return f"{self.live} AND {sql} AND ({self.vis.sql})", (*params, *self.vis.params)


def _predicate(pattern: ObjectPattern) -> tuple[str, tuple[Any, ...]]:
    if pattern.kind == "subtree":
        if pattern.path == P.ROOT:
            return "1", ()
        return (
            "f.path_id IN (SELECT c.descendant_id FROM path_closure c "
            "JOIN paths a ON a.id = c.ancestor_id WHERE a.path = ?)",
            (pattern.path,),
        )
    if pattern.kind == "path":
        return "f.path_id IN (SELECT a.id FROM paths a WHERE a.path = ?)", (pattern.path,)
    key, value = pattern.key, pattern.value
    own = "EXISTS (SELECT 1 FROM fact_tags t WHERE t.fact_id = f.id AND t.key = ? AND t.value = ?)"
    if key == OWNER_KEY:
        return own, (key, value)
    inherited = (
        "(NOT EXISTS (SELECT 1 FROM fact_tags t WHERE t.fact_id = f.id AND t.key = ?) "
        "AND (SELECT pt.value FROM path_closure c JOIN path_tags pt "
        "ON pt.path_id = c.ancestor_id AND pt.key = ? AND pt.tagger = f.owner "
        "WHERE c.descendant_id = f.path_id "
        "ORDER BY c.ancestor_depth DESC LIMIT 1) IS ?)"
    )
    return f"({own} OR {inherited})", (key, value, key, key, value)


def _visible(viewer: Viewer) -> tuple[str, tuple[Any, ...]]:
    """The facts a viewer may see by their visibility (every term two-valued)."""
    names = sorted(viewer.names)
    allowed = (
        "EXISTS (SELECT 1 FROM fact_visibility_allow v WHERE v.fact_id = f.id "
        f"AND v.subject IN ({','.join('?' * len(names))}))"
    )
    restricted = f"(f.visibility LIKE 'restricted:%' AND (f.owner = ? OR {allowed}))"
    if viewer.assistant:  # a private fact never reaches an assistant, not even its owner's
        return f"(f.visibility IS NULL OR {restricted})", (viewer.subject, *names)
    return (
        f"(f.visibility IS NULL OR (f.visibility = 'private' AND f.owner = ?) OR {restricted})",
        (viewer.subject, viewer.subject, *names),
    )


def compile_scope(scope: ReadScope) -> Visibility:
    """The SQLite filter of ``scope``: its rules, then (with a viewer) the visibility."""
    rules = _compile_rules(scope)
    if scope.viewer is None or rules.sql == "0":
        return rules
    sql, params = _visible(scope.viewer)
    if rules.sql == "1":
        return Visibility(sql, params)
    return Visibility(f"({rules.sql}) AND {sql}", rules.params + params)


def _compile_rules(scope: ReadScope) -> Visibility:
    if scope.everything:
        return ALL_VISIBLE
    allows = [_predicate(p) for p in scope.allows]
    denies = [_predicate(p) for p in scope.denies]
    if not allows:
        return Visibility("0", ())
    if any(sql == "1" for sql, _ in allows):
        allow_sql, allow_params = "1", ()
    else:
        allow_sql = "(" + " OR ".join(sql for sql, _ in allows) + ")"
        allow_params = tuple(p for _, params in allows for p in params)
    if not denies:
        return Visibility(allow_sql, allow_params)
    if any(sql == "1" for sql, _ in denies):
        return Visibility("0", ())
    deny_sql = " OR ".join(sql for sql, _ in denies)
    deny_params = tuple(p for _, params in denies for p in params)
    return Visibility(f"{allow_sql} AND NOT ({deny_sql})", allow_params + deny_params)


def compile_read_filter(permissions: Sequence[Rule]) -> Visibility:
    """The read filter for the given ``p`` rules (already narrowed to subject and action)."""
    return compile_scope(read_scope(permissions))


class ScopeCache:
    """Compiled filters of one store, keyed by the scope value (compiled once each)."""

    LIMIT = 256

    def __init__(self) -> None:
        self._compiled: dict[ReadScope, Visibility] = {}

    def get(self, scope: ReadScope) -> Visibility:
        if scope.unfiltered:
            return ALL_VISIBLE
        vis = self._compiled.get(scope)
        if vis is None:
            if len(self._compiled) >= self.LIMIT:  # many subjects' rules: start over
                self._compiled = {}
            vis = self._compiled[scope] = compile_scope(scope)
        return vis

    def clear(self) -> None:
        self._compiled = {}
