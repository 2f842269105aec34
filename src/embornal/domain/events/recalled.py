"""The body of a recall's event, in a module of its own: a recall writes it, so the read
path loads this class (and :mod:`.base`), not every event class (decision 0050)."""

from __future__ import annotations

from datetime import datetime

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = ["FactsRecalled"]


@value
class FactsRecalled(DomainEvent):
    """One recall: the facts it returned, each lifted in strength at ``at``."""

    TYPE: ClassVar[str] = EventType.FACTS_RECALLED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_ids",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_ids", "at")

    fact_ids: tuple[str, ...]
    at: datetime
