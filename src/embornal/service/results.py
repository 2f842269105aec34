"""What the service API returns: frozen dataclasses, never dicts."""

from __future__ import annotations

from embornal.domain.facts.fact import Fact
from embornal.domain.recall.ranking import ScoreParts
from embornal.domain.values import value
from embornal.hints import TYPE_CHECKING
from embornal.lazy import exports

if TYPE_CHECKING:  # defined in .details and .view, loaded when first named (off a recall's path)
    from embornal.service.facts.details import (
        DueFact,
        FactDetail,
        NewFact,
        PathEntry,
        PurgeResult,
        TreeNode,
    )
    from embornal.service.facts.view import FactView

__all__ = [
    "DueFact",
    "FactDetail",
    "FactView",
    "NewFact",
    "PathEntry",
    "PurgeResult",
    "RecallHit",
    "TreeNode",
]


@value
class RecallHit:
    """One recall hit: the fact, its score and strength, and the score's parts."""

    fact: Fact
    score: float
    strength: float
    parts: ScoreParts


#: The results a recall never returns, defined in :mod:`embornal.service.facts.details` (and
#: ``cat``'s in :mod:`embornal.service.facts.view`) and imported the first time one is named
#: (their classes cost a recall's start-up).
__getattr__, __dir__ = exports(
    __name__,
    {
        **{
            name: "embornal.service.facts.details"
            for name in ("DueFact", "FactDetail", "NewFact", "PathEntry", "PurgeResult", "TreeNode")
        },
        "FactView": "embornal.service.facts.view",
    },
)
