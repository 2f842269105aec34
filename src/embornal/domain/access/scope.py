"""The read scope: what a subject may read, as a value every storage backend compiles.

A :class:`ReadScope` is the subject's effective ``read`` rules with the subjects and
roles taken out — a sorted, de-duplicated tuple of ``(effect, object pattern)`` — or
``everything``. It is built here, from the access rules, with pure code; each backend
turns it into its own filter (SQLite: one ``WHERE`` fragment, see
:mod:`embornal.storage.common.access`) and caches that by the value, so two subjects
with the same rules share one compiled filter.

A fact is in scope when some allow pattern matches it and no deny pattern does
(:meth:`ReadScope.admits`, which the compiled filters must agree with).

The scope also names its :class:`Viewer` — who reads, under which names, as what kind of
actor — and then a fact must also be visible to it (:func:`visible_to`, the
visibility of decision 0038): ``shared`` facts to anyone the rules let read them,
``private`` ones to their owner alone and never to an assistant, ``restricted:a,b`` ones
to their owner and to a reader that is (or holds the role) ``a`` or ``b``. Visibility
only narrows what the rules allow; it never lets a reader see more. A scope with no
viewer (the store's own reads: rules, folds, verify) sees every visibility.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from embornal.domain import paths as P
from embornal.domain.access.rules import ObjectPattern, Rule, parse_object, permissions_for
from embornal.domain.records import record
from embornal.hints import NamedTuple

__all__ = [
    "ALLOW",
    "DENY",
    "EVERYTHING",
    "NOTHING",
    "ReadScope",
    "ScopeRule",
    "Viewer",
    "read_scope",
    "scope_for",
    "visible_to",
]

PRIVATE = "private"
RESTRICTED_PREFIX = "restricted:"

ALLOW = "allow"
DENY = "deny"


# Made from types, not from a class body: with postponed annotations a class body's field
# types are text, which ``NamedTuple`` compiles (the first compile of a process costs a
# short command).
ScopeRule = NamedTuple("ScopeRule", [("effect", str), ("pattern", ObjectPattern)])  # noqa: UP014
ScopeRule.__doc__ = "One effective read rule: ``allow`` or ``deny`` the facts ``pattern`` matches."


def _order(rule: ScopeRule) -> tuple[str, str, str, str, str]:
    p = rule.pattern
    return (rule.effect, p.kind, p.path or "", p.key or "", p.value or "")


@record
class Viewer:
    """Who reads: ``subject``, the ``names`` it answers to in an allow-list (itself and
    every role it holds), and whether it reads as an ``assistant``."""

    subject: str
    names: frozenset[str] = frozenset()
    assistant: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset({self.subject, *self.names}))


def visible_to(visibility: str | None, owner: str, viewer: Viewer | None) -> bool:
    """Whether a fact of ``owner`` with this visibility (its text form; None: shared)
    reaches ``viewer`` (None: the store's own reads, which see everything)."""
    if viewer is None or visibility is None or visibility == "shared":
        return True
    if visibility == PRIVATE:
        return owner == viewer.subject and not viewer.assistant
    if visibility.startswith(RESTRICTED_PREFIX):
        allow = set(visibility[len(RESTRICTED_PREFIX) :].split(","))
        return owner == viewer.subject or bool(viewer.names & allow)
    return False  # a visibility this build does not know: hidden


@record
class ReadScope:
    """The facts a reader may see: ``everything``, or those its ``rules`` let through;
    with a ``viewer``, only those among them visible to it."""

    rules: tuple[ScopeRule, ...] = ()
    everything: bool = False
    viewer: Viewer | None = None

    def __post_init__(self) -> None:
        if self.everything and self.rules:
            raise ValueError("a scope of everything has no rules")

    @property
    def allows(self) -> tuple[ObjectPattern, ...]:
        return tuple(r.pattern for r in self.rules if r.effect == ALLOW)

    @property
    def denies(self) -> tuple[ObjectPattern, ...]:
        return tuple(r.pattern for r in self.rules if r.effect == DENY)

    @property
    def nothing(self) -> bool:
        """Whether no fact passes."""
        return not self.everything and not self.allows

    @property
    def unfiltered(self) -> bool:
        """Whether every fact passes, whatever its visibility (no viewer)."""
        return self.everything and self.viewer is None

    def seen_by(self, viewer: Viewer | None) -> ReadScope:
        """This scope, read by ``viewer``."""
        return ReadScope(self.rules, self.everything, viewer)

    def admits(
        self,
        fact_path: str,
        tags: Mapping[str, str],
        *,
        owner: str = "",
        visibility: str | None = None,
    ) -> bool:
        """Whether a fact at ``fact_path`` with these effective tags (of ``owner``, with
        this visibility) is in scope."""
        if not visible_to(visibility, owner, self.viewer):
            return False
        if self.everything:
            return True
        if any(p.matches(fact_path, tags) for p in self.denies):
            return False
        return any(p.matches(fact_path, tags) for p in self.allows)


EVERYTHING = ReadScope(everything=True)
NOTHING = ReadScope()


def _is_root(pattern: ObjectPattern) -> bool:
    return pattern.kind == "subtree" and pattern.path == P.ROOT


def read_scope(permissions: Sequence[Rule]) -> ReadScope:
    """The scope of these ``p`` rules (already narrowed to one subject and ``read``),
    in a canonical form: equal rights give equal (and equally hashed) scopes."""
    rules = {ScopeRule(r.values[3], parse_object(r.values[1])) for r in permissions}
    allows = [r for r in rules if r.effect != DENY]
    denies = [r for r in rules if r.effect == DENY]
    if not allows or any(_is_root(r.pattern) for r in denies):
        return NOTHING
    if any(_is_root(r.pattern) for r in allows):
        if not denies:
            return EVERYTHING
        allows = [ScopeRule(ALLOW, parse_object("path:/*"))]  # the other allows add nothing
    canonical = [ScopeRule(ALLOW, r.pattern) for r in allows] + denies
    return ReadScope(tuple(sorted(set(canonical), key=_order)))


def scope_for(subject: str, rules: Sequence[Rule]) -> ReadScope:
    """What ``subject`` (with its roles) may read under ``rules``."""
    return read_scope(permissions_for(subject, "read", rules))
