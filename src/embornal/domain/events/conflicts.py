"""The events of a conflict (stream ``conflict:<id>``; decision 0059).

A conflict is opened once, with its members (the fact ids it sets against each other),
its class and what found it, and resolved once, by an explicit decision with a reason
(the envelope's). Neither holds user text: the findings are the rules that matched
(``names: initials agree``), never the names themselves, so a purge of a member has
nothing to erase here; a page shows the members' own attributes beside each other.
"""

from __future__ import annotations

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = ["CONFLICT_EVENT_CLASSES", "ConflictOpened", "ConflictResolved"]


@value
class ConflictOpened(DomainEvent):
    """Facts that may be one thing twice (``duplicate``), that disagree
    (``contradiction``) or whose confidence has decayed (``stale``, one member).
    ``detected_by``: ``store``, ``contradict`` or ``scan``; ``score`` 0..1;
    ``suggested_keep`` the member the rules would keep (None: no suggestion)."""

    TYPE: ClassVar[str] = EventType.CONFLICT_OPENED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("members", "suggested_keep")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "conflict_id",
        "conflict_class",
        "members",
        "findings",
        "score",
        "detected_by",
        "suggested_keep",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("suggested_keep",)

    conflict_id: str
    conflict_class: str
    members: tuple[str, ...]
    findings: tuple[str, ...]
    score: float
    detected_by: str
    suggested_keep: str | None = None


@value
class ConflictResolved(DomainEvent):
    """A person's (or a token's) decision on a conflict: ``keep`` one member (the others
    are forgotten by events of their own, in the same transaction) or ``both`` (all
    stand: not one thing twice, or both true). ``kept_id`` for keep; ``archived`` the
    members it forgot."""

    TYPE: ClassVar[str] = EventType.CONFLICT_RESOLVED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("kept_id", "archived")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("conflict_id", "outcome", "kept_id", "archived")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("kept_id",)

    conflict_id: str
    outcome: str
    kept_id: str | None = None
    archived: tuple[str, ...] = ()


CONFLICT_EVENT_CLASSES: tuple[type[DomainEvent], ...] = (ConflictOpened, ConflictResolved)
