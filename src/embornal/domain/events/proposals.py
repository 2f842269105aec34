"""The events of a proposal's stream (``proposal:<id>``): opened, edited, approved,
rejected (decision 0055).

A proposal holds draft items (``{"1": {"type": "create", ...}, ...}``); they are user text
(content, attributes, reasons), so ``items`` is a text field, as are the title and the
source label a caller gives. No item is a fact until an
approval applies it: the events the approval appends to the facts' streams are the
ordinary ones (``FactStored``, ``FactForgotten``...), written in the approval's
transaction.
"""

from __future__ import annotations

from collections.abc import Mapping

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.values import value
from embornal.hints import Any, ClassVar

__all__ = [
    "PROPOSAL_EVENTS",
    "ProposalApproved",
    "ProposalEdited",
    "ProposalOpened",
    "ProposalRejected",
]


@value
class ProposalOpened(DomainEvent):
    """A new proposal: its items by number (from ``"1"``), a title and a source label
    (who or what made it: ``prune``, an importer, a chat client)."""

    TYPE: ClassVar[str] = EventType.PROPOSAL_OPENED
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("items", "title", "source")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("proposal_id",)

    proposal_id: str
    items: Mapping[str, Any] | None
    title: str | None = None
    source: str | None = None


@value
class ProposalEdited(DomainEvent):
    """Items replaced or added (``items``, by number) and items dropped (``dropped``)
    while the proposal is open; ``item_count``: how many it holds after the edit."""

    TYPE: ClassVar[str] = EventType.PROPOSAL_EDITED
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("items",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("proposal_id", "dropped", "item_count")

    proposal_id: str
    items: Mapping[str, Any] | None
    dropped: tuple[str, ...] = ()
    item_count: int = 0


@value
class ProposalApproved(DomainEvent):
    """The approval: the items applied (by number; the others are declined) and who
    approved (a subject, or ``policy:<rule>`` for an auto-approve rule of the config).
    The fact events it applies follow it in the log, in the same transaction."""

    TYPE: ClassVar[str] = EventType.PROPOSAL_APPROVED
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("proposal_id", "items", "approver")

    proposal_id: str
    items: tuple[str, ...]
    approver: str


@value
class ProposalRejected(DomainEvent):
    """The rejection of the whole proposal (the reason is the envelope's)."""

    TYPE: ClassVar[str] = EventType.PROPOSAL_REJECTED
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("proposal_id",)

    proposal_id: str


PROPOSAL_EVENTS: tuple[type[DomainEvent], ...] = (
    ProposalOpened,
    ProposalEdited,
    ProposalApproved,
    ProposalRejected,
)
