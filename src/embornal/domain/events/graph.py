"""The events of the graph (decisions 0052, 0054): typed links and merges.

A link lives on its source fact's stream (``FactLinked`` / ``FactUnlinked``: the source,
the relation in its canonical direction, the target), so the source's aggregate knows its
links and refuses a duplicate at decide time. A merge is ``FactMerged`` on the survivor's
stream, naming the source; the source's own stream takes a ``FactForgotten`` in the same
transaction and survives as history (decision 0054). None of them holds user text: ids and
relation names only (the reason is the envelope's).
"""

from __future__ import annotations

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = ["GRAPH_EVENT_CLASSES", "FactLinked", "FactMerged", "FactUnlinked"]


@value
class _LinkChange(DomainEvent):
    """The body of a link and of an unlink: ``fact_id —relation→ target_id``, and
    ``undoes`` when the event is an undo. Each subclass is its own stored type."""

    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "target_id")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "relation", "target_id", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    fact_id: str
    relation: str
    target_id: str
    undoes: int | None = None


@value
class FactLinked(_LinkChange):
    """A typed link ``fact_id —relation→ target_id`` (canonical direction; a symmetric
    relation is stored from the smaller id). ``undoes``: the unlink it takes back."""

    TYPE: ClassVar[str] = EventType.FACT_LINKED


@value
class FactUnlinked(_LinkChange):
    """The link ``fact_id —relation→ target_id`` is taken off. ``undoes``: the link it
    takes back."""

    TYPE: ClassVar[str] = EventType.FACT_UNLINKED


@value
class FactMerged(DomainEvent):
    """The fact ``source_id`` is merged into this one (``fact_id``, the survivor): links to
    the source resolve to the survivor from now on (decision 0054)."""

    TYPE: ClassVar[str] = EventType.FACT_MERGED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "source_id")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "source_id")

    fact_id: str
    source_id: str


GRAPH_EVENT_CLASSES: tuple[type[DomainEvent], ...] = (FactLinked, FactUnlinked, FactMerged)
