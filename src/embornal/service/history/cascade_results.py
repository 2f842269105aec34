"""What the recall cascade and the searches return (decisions 0095 and 0097)."""

from __future__ import annotations

from dataclasses import dataclass

from embornal.domain.facts.fact import Fact
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.history.canon_results import CanonEntry
from embornal.service.history.results import DueMemory
from embornal.service.narratives.results import Narrative, NarrativeReview
from embornal.service.results import RecallHit

__all__ = ["Cascade"]


@dataclass(frozen=True)
class Cascade:
    """One answer of the recall cascade, in its order of priority.

    ``anchors`` are the live pinned memories the subject may read, always whole;
    ``canon`` the active canon entries of the active scopes that are not anchors;
    ``memories`` the ordinary recall with both removed, filling what ``limit`` leaves
    (``limit`` bounds the three together, the anchors the sole exception). ``hits`` is
    the ordinary recall as ``Memory.recall`` ranks it (the first ``limit``), which the
    MCP ``recall`` tool has always answered. Beside them: the interpretations overdue for
    review, the scope's usable narrative or its review notice (never both), and the open
    conflicts. ``frame`` filters every section of memories."""

    query: str | None
    frame: str | None
    limit: int
    anchors: tuple[Fact, ...]
    canon: tuple[CanonEntry, ...]
    memories: tuple[RecallHit, ...]
    hits: tuple[RecallHit, ...]
    stale_interpretations: tuple[DueMemory, ...]
    narrative: Narrative | None
    narrative_review: NarrativeReview | None
    conflicts: tuple[ConflictRecord, ...]
