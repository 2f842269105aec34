"""embornal: a local-first, auditable memory for AI agents.

>>> from embornal import Memory

Names are imported on first use, so ``import embornal`` (and the CLI) starts fast.
"""

from __future__ import annotations

from embornal import hints as _hints
from embornal.lazy import exports as _exports

__all__ = [
    "ActorKind",
    "DueFact",
    "EmbornalError",
    "Event",
    "Fact",
    "FactDetail",
    "FactView",
    "FixedClock",
    "Memory",
    "NewFact",
    "PathEntry",
    "PurgeResult",
    "RecallHit",
    "ScoreParts",
    "SystemClock",
    "Tag",
    "TreeNode",
]

__version__ = "0.1.0"

_WHERE = {
    "ActorKind": "embornal.domain.events",
    "Event": "embornal.domain.events",
    "EmbornalError": "embornal.errors",
    "Fact": "embornal.domain.facts.fact",
    "FixedClock": "embornal.domain.clock",
    "SystemClock": "embornal.domain.clock",
    "ScoreParts": "embornal.domain.recall.ranking",
    "Tag": "embornal.domain.facts.tags",
    "Memory": "embornal.service.memory",
    "DueFact": "embornal.service.results",
    "FactDetail": "embornal.service.results",
    "FactView": "embornal.service.results",
    "NewFact": "embornal.service.results",
    "PathEntry": "embornal.service.results",
    "PurgeResult": "embornal.service.results",
    "RecallHit": "embornal.service.results",
    "TreeNode": "embornal.service.results",
}

if _hints.TYPE_CHECKING:
    from embornal.domain.clock import FixedClock, SystemClock
    from embornal.domain.events import ActorKind, Event
    from embornal.domain.facts.fact import Fact
    from embornal.domain.facts.tags import Tag
    from embornal.domain.recall.ranking import ScoreParts
    from embornal.errors import EmbornalError
    from embornal.service.memory import Memory
    from embornal.service.results import (
        DueFact,
        FactDetail,
        FactView,
        NewFact,
        PathEntry,
        PurgeResult,
        RecallHit,
        TreeNode,
    )


__getattr__, __dir__ = _exports(__name__, _WHERE)
