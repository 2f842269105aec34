"""What the timeline's use cases return (:mod:`.timeline`; decision 0089): frozen
dataclasses, each with one wire shape (:mod:`embornal.interfaces.timeline.wire`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from embornal.domain.facts.fact import Fact

__all__ = ["Evidence", "HistoryHit", "TimelineEntry"]


@dataclass(frozen=True)
class TimelineEntry:
    """A memory on the timeline: the fact and its history context (``event_at``: when the
    event it tells of happened, None: unknown; ``session_id``; ``session_position``)."""

    fact: Fact
    event_at: datetime | None
    session_id: str | None
    session_position: int | None


@dataclass(frozen=True)
class Evidence:
    """A memory a history search adds to the hit ``seed_id``: its neighbour in the session
    (``via`` ``session``, ``offset`` places from the hit) or a memory linked to it (``via``
    ``link``: the ``relation``, read ``out`` from the hit or ``in`` towards it). A
    retrieval aid, not proof that the two support each other."""

    entry: TimelineEntry
    seed_id: str
    via: str
    offset: int | None = None
    relation: str | None = None
    direction: str | None = None


@dataclass(frozen=True)
class HistoryHit:
    """A memory matching a history search, its keyword ``score`` (higher is better) and
    the bounded evidence around it (none unless asked for with ``expand``)."""

    entry: TimelineEntry
    score: float
    evidence: tuple[Evidence, ...] = ()
