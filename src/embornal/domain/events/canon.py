"""The events of canon and frames (decision 0078), in the stream of the
fact they are about, as the rest of the history protocol's (decision 0064): a memory
entering the active canon of a scope, leaving it, and its frame set.

A canon membership is decided on the fact's own stream, so a forget racing a canonize
is decided again on what the other left (decision 0078). The reasons are the envelope's.
A scope and a frame are labels a person types: user text, erased by a purge (which also
drops the purged fact's memberships and frame from the projections; decision 0134). A
redacted event's scope or frame is None, and changes nothing when replayed.
"""

from __future__ import annotations

from embornal.domain.events.base import DomainEvent
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = [
    "CANON_EVENTS",
    "MemoryCanonized",
    "MemoryDecanonized",
    "MemoryFramed",
]


@value
class MemoryCanonized(DomainEvent):
    """The memory enters the active canon of ``scope`` (a task's focus set)."""

    TYPE: ClassVar[str] = "MemoryCanonized"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("scope",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str
    scope: str | None


@value
class MemoryDecanonized(DomainEvent):
    """The memory leaves the active canon of ``scope``; ``cause``: ``decanonize`` (asked
    for), ``end_scope`` (the scope ended) or ``sensitivity`` (flagged sensitive without
    the corroboration gate met). The memory itself is untouched."""

    TYPE: ClassVar[str] = "MemoryDecanonized"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("scope",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "cause")
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str
    scope: str | None
    cause: str = "decanonize"


@value
class MemoryFramed(DomainEvent):
    """The memory's frame (a label to filter by, not an access boundary) is ``frame``;
    ``previous`` the frame it had (None: none)."""

    TYPE: ClassVar[str] = "MemoryFramed"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("frame", "previous")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("previous",)

    fact_id: str
    frame: str | None
    previous: str | None = None


CANON_EVENTS: tuple[type[DomainEvent], ...] = (MemoryCanonized, MemoryDecanonized, MemoryFramed)
