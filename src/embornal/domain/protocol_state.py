"""The history protocol's state of one memory, folded from the protocol's events in the
fact's stream (seed 002; decision 0064), and the one rule the fact aggregate itself
applies: an anchored memory is not forgotten. The other rules are
:mod:`embornal.domain.protocol`'s."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from embornal.domain.events import DomainEvent
from embornal.domain.events.protocol import (
    MemoryCaptured,
    MemoryContextSet,
    MemoryCorroborated,
    MemoryFlaggedSensitive,
    MemoryPromoted,
    MemoryReviewed,
    MemoryTierChanged,
    MemoryUnpinNoop,
)
from embornal.domain.provenance import Corroboration
from embornal.errors import ProtocolViolation

__all__ = [
    "ARCHIVE",
    "CONSOLIDATED",
    "INTERPRETATION",
    "ORDINARY",
    "TESTIMONY",
    "WORKING",
    "HistoryState",
    "check_forget",
    "evolve_history",
    "history_of",
    "is_protocol_event",
]

ARCHIVE, TESTIMONY, INTERPRETATION = "archive", "testimony", "interpretation"
WORKING, CONSOLIDATED = "working", "consolidated"


@dataclass(frozen=True)
class HistoryState:
    """What the protocol knows of one memory. ``reviewed_at``: its last review (None:
    never; the review clock then counts from its capture, ``captured_at``). Its history
    context (decision 0088): ``session``, ``event_at`` (when the event it tells of
    happened; None: unknown) and ``session_position`` (its place in the session)."""

    stage: str = CONSOLIDATED
    tier: str = ARCHIVE
    sensitive: bool = False
    screened: tuple[str, ...] = ()
    corroborations: tuple[Corroboration, ...] = ()
    captured_at: datetime | None = None
    reviewed_at: datetime | None = None
    session: str | None = None
    event_at: datetime | None = None
    session_position: int | None = None


#: The state of a fact no protocol event has touched.
ORDINARY = HistoryState()


def history_of(state: Any) -> HistoryState:
    """The protocol state of a fact's state (``FactState``); an ordinary fact's default."""
    return state.history if state.history is not None else ORDINARY


def is_protocol_event(event: DomainEvent) -> bool:
    return isinstance(
        event,
        MemoryCaptured
        | MemoryPromoted
        | MemoryCorroborated
        | MemoryTierChanged
        | MemoryReviewed
        | MemoryFlaggedSensitive
        | MemoryUnpinNoop
        | MemoryContextSet,
    )


def evolve_history(
    history: HistoryState | None, event: DomainEvent, at: datetime | None
) -> HistoryState:
    """The protocol state after one more of its events."""
    h = history if history is not None else ORDINARY
    if isinstance(event, MemoryCaptured):
        return HistoryState(
            WORKING,
            event.tier,
            event.sensitive,
            event.screened,
            (),
            at,
            None,
            event.session,
            event.event_at,
            event.session_position,
        )
    if isinstance(event, MemoryContextSet):
        return replace(
            h,
            session=event.session,
            event_at=event.event_at,
            session_position=event.session_position,
        )
    if isinstance(event, MemoryPromoted):
        return replace(h, stage=CONSOLIDATED)
    if isinstance(event, MemoryCorroborated):
        if event.source is None:  # redacted by a purge
            return h
        c = Corroboration(event.source, event.common_origin)
        return replace(h, corroborations=(*h.corroborations, c))
    if isinstance(event, MemoryTierChanged):
        return replace(h, tier=event.tier)
    if isinstance(event, MemoryReviewed):
        return replace(h, reviewed_at=at)
    if isinstance(event, MemoryFlaggedSensitive):
        return replace(h, sensitive=True, screened=h.screened + event.screened)
    return h  # MemoryUnpinNoop: audited, changes nothing


def check_forget(state: Any) -> None:
    """An anchored memory is not forgotten: it is unpinned first."""
    if state.pinned:
        raise ProtocolViolation(
            f"memory {state.fact_id} is anchored (pinned): it cannot be forgotten",
            hint="Unpin it first: unpin(memory_id, reason) (`embornal memory unpin ID "
            "--reason '...'`), then forget it.",
        )
