"""The read scope: what a subject may read, as a value every storage backend compiles.

A :class:`ReadScope` is the subject's effective ``read`` rules with the subjects and
roles taken out — a sorted, de-duplicated tuple of ``(effect, object pattern)`` — or
``everything``. It is built here, from the access rules, with pure code; each backend
turns it into its own filter (SQLite: one ``WHERE`` fragment, see
:mod:`embornal.storage.access_sql`) and caches that by the value, so two subjects
with the same rules share one compiled filter.

A fact is in scope when some allow pattern matches it and no deny pattern does
(:meth:`ReadScope.admits`, which the compiled filters must agree with).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from embornal.domain import paths as P
from embornal.domain.access import ObjectPattern, Rule, parse_object, permissions_for

__all__ = [
    "ALLOW",
    "DENY",
    "EVERYTHING",
    "NOTHING",
    "ReadScope",
    "ScopeRule",
    "read_scope",
    "scope_for",
]

ALLOW = "allow"
DENY = "deny"


class ScopeRule(NamedTuple):
    """One effective read rule: ``allow`` or ``deny`` the facts ``pattern`` matches."""

    effect: str
    pattern: ObjectPattern


def _order(rule: ScopeRule) -> tuple[str, str, str, str, str]:
    p = rule.pattern
    return (rule.effect, p.kind, p.path or "", p.key or "", p.value or "")


@dataclass(frozen=True)
class ReadScope:
    """The facts a reader may see: ``everything``, or those its ``rules`` let through."""

    rules: tuple[ScopeRule, ...] = ()
    everything: bool = False

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

    def admits(self, fact_path: str, tags: Mapping[str, str]) -> bool:
        """Whether a fact at ``fact_path`` with these effective tags is in scope."""
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
