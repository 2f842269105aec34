"""embornal: a local-first, auditable memory for AI agents.

>>> from embornal import Memory
"""

from embornal.domain.clock import FixedClock, SystemClock
from embornal.domain.events import ActorKind, Event
from embornal.domain.facts import Fact
from embornal.domain.ranking import ScoreParts
from embornal.domain.tags import Tag
from embornal.errors import EmbornalError
from embornal.service.memory import Memory
from embornal.service.results import (
    FactDetail,
    FactView,
    NewFact,
    PathEntry,
    PurgeResult,
    RecallHit,
    TreeNode,
)

__all__ = [
    "ActorKind",
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
