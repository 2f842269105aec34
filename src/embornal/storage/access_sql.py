"""Compile a subject's permissions into one SQL WHERE fragment over facts ``f``.

The fragment keeps a fact when some allow rule matches it and no deny rule
does. Every predicate is two-valued (never NULL), so ``NOT`` of a deny is safe.
Tag rules read the effective tag of the fact: its own tag when it has one with
that key, else the tag of the nearest tagged path above it (an owner tag on a
path never reaches a fact).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from embornal.domain import paths as P
from embornal.domain.access import Rule, parse_object
from embornal.domain.tags import OWNER_KEY
from embornal.storage.sqlite import Visibility

__all__ = ["compile_read_filter"]


def _predicate(obj: str) -> tuple[str, tuple[Any, ...]]:
    pattern = parse_object(obj)
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


def compile_read_filter(permissions: Sequence[Rule]) -> Visibility:
    """The read filter for the given ``p`` rules (already narrowed to subject and action)."""
    allows: list[tuple[str, tuple[Any, ...]]] = []
    denies: list[tuple[str, tuple[Any, ...]]] = []
    for rule in permissions:
        (denies if rule.values[3] == "deny" else allows).append(_predicate(rule.values[1]))
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
