"""The memory's own guide: the facts under ``/memory`` (decision 0154).

They teach a reader how to use the memory; they are not the user's data. They are
pinned and permanent (written so by the events that store them), and the listings and
searches leave them out unless asked for (``all``): recall, search, ls and tree, and the
reports that judge the user's facts (retention, prune, due, the anchors' count).
``cat /memory`` and ``show`` of one of them still read them. The listings and reports
leave them out by narrowing the read scope with one deny rule (:func:`without_guide`),
which every backend compiles as it compiles what a subject may not read; recall and
search take them out of their hits instead (the scope decides their keyword scoring).
"""

from __future__ import annotations

from embornal.domain import paths as P
from embornal.domain.access.rules import ObjectPattern
from embornal.domain.access.scope import ALLOW, DENY, ReadScope, ScopeRule

__all__ = ["GUIDE_PATH", "asks_for_guide", "is_guide_path", "without_guide"]

GUIDE_PATH = "/memory"

_GUIDE = ScopeRule(DENY, ObjectPattern("subtree", GUIDE_PATH))
_EVERY_PATH = ScopeRule(ALLOW, ObjectPattern("subtree", P.ROOT))


def is_guide_path(path: str) -> bool:
    """Whether ``path`` (normalized) is the guide's path or below it."""
    return P.is_under(path, GUIDE_PATH)


def asks_for_guide(path: str | None) -> bool:
    """Whether a listing of ``path`` (normalized; None: no path) asks for the guide itself:
    ``ls /memory`` or ``tree /memory`` shows it without ``all``."""
    return path is not None and path != P.ROOT and is_guide_path(path)


def without_guide(scope: ReadScope) -> ReadScope:
    """``scope`` with the guide's subtree denied: what it reads, less ``/memory``."""
    if scope.nothing or _GUIDE in scope.rules:
        return scope
    rules = (_EVERY_PATH,) if scope.everything else scope.rules
    return ReadScope(tuple(sorted({*rules, _GUIDE}, key=_order)), viewer=scope.viewer)


def _order(rule: ScopeRule) -> tuple[str, str, str, str, str]:
    p = rule.pattern
    return (rule.effect, p.kind, p.path or "", p.key or "", p.value or "")
