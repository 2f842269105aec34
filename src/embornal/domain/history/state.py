"""The history protocol's state of one memory, folded from the protocol's events in the
fact's stream (decisions 0064, 0078), and the one rule the fact aggregate
itself applies: an anchored or canonized memory is not forgotten. The other rules are
:mod:`embornal.domain.history.protocol`'s and :mod:`embornal.domain.history.canon`'s."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from embornal.domain.events import DomainEvent
from embornal.domain.events.canon import (
    CANON_EVENTS,
    MemoryCanonized,
    MemoryDecanonized,
    MemoryFramed,
)
from embornal.domain.events.protocol import (
    PROTOCOL_EVENTS,
    MemoryCaptured,
    MemoryContextSet,
    MemoryCorroborated,
    MemoryFlaggedSensitive,
    MemoryPromoted,
    MemoryReviewed,
    MemoryReviewOverdue,
    MemoryTierChanged,
)
from embornal.domain.history.provenance import Corroboration
from embornal.domain.values import value
from embornal.errors import ProtocolViolation
from embornal.hints import Any

__all__ = [
    "ARCHIVE",
    "CONSOLIDATED",
    "INTERPRETATION",
    "ORDINARY",
    "TESTIMONY",
    "UNSPECIFIED",
    "WORKING",
    "HistoryState",
    "check_forget",
    "evolve_history",
    "history_of",
    "is_protocol_event",
]

ARCHIVE, TESTIMONY, INTERPRETATION = "archive", "testimony", "interpretation"
WORKING, CONSOLIDATED = "working", "consolidated"
#: A capture that did not say what its material is (decision 0156).
UNSPECIFIED = "unspecified"


@value
class HistoryState:
    """What the protocol knows of one memory. ``reviewed_at``: its last review (None:
    never; the review clock then counts from its capture, ``captured_at``). ``scopes``:
    the canon scopes it is in, in the order it entered them; ``frame`` its frame label
    (None: none). Its history context (decision 0088): ``session``, ``event_at`` (when
    the event it tells of happened; None: unknown) and ``session_position`` (its place in
    the session). ``overdue``: found overdue by ``due_for_review`` since its last review
    (decision 0142). What the capture declared of its material (decision 0156):
    ``material_type``, ``origin_id`` (None: unknown), ``capture_context`` (None: not
    said)."""

    stage: str = CONSOLIDATED
    tier: str = ARCHIVE
    sensitive: bool = False
    screened: tuple[str, ...] = ()
    corroborations: tuple[Corroboration, ...] = ()
    captured_at: datetime | None = None
    reviewed_at: datetime | None = None
    session: str | None = None
    scopes: tuple[str, ...] = ()
    frame: str | None = None
    event_at: datetime | None = None
    session_position: int | None = None
    overdue: bool = False
    material_type: str = UNSPECIFIED
    origin_id: str | None = None
    capture_context: str | None = None


#: The state of a fact no protocol event has touched.
ORDINARY = HistoryState()


def history_of(state: Any) -> HistoryState:
    """The protocol state of a fact's state (``FactState``); an ordinary fact's default."""
    return state.history if state.history is not None else ORDINARY


#: The events that fold into a memory's protocol state: the history protocol's and the canon's.
_HISTORY_EVENTS = (*PROTOCOL_EVENTS, *CANON_EVENTS)


def is_protocol_event(event: DomainEvent) -> bool:
    return isinstance(event, _HISTORY_EVENTS)


def evolve_history(
    history: HistoryState | None, event: DomainEvent, at: datetime | None
) -> HistoryState:
    """The protocol state after one more of its events."""
    h = history if history is not None else ORDINARY
    if isinstance(event, MemoryCaptured):
        return replace(
            h,
            stage=WORKING,
            tier=event.tier,
            sensitive=event.sensitive,
            screened=event.screened,
            corroborations=(),
            captured_at=at,
            reviewed_at=None,
            session=event.session,
            event_at=event.event_at,
            session_position=event.session_position,
            material_type=event.material_type or UNSPECIFIED,
            origin_id=event.origin_id,
            capture_context=event.capture_context,
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
        return replace(h, reviewed_at=at, overdue=False)
    if isinstance(event, MemoryReviewOverdue):
        return replace(h, overdue=True)
    if isinstance(event, MemoryFlaggedSensitive):
        return replace(h, sensitive=True, screened=h.screened + event.screened)
    if isinstance(event, MemoryCanonized | MemoryDecanonized) and event.scope is None:
        return h  # redacted by a purge (after which the memory is in no scope)
    if isinstance(event, MemoryCanonized) and event.scope is not None:
        return replace(h, scopes=(*(x for x in h.scopes if x != event.scope), event.scope))
    if isinstance(event, MemoryDecanonized):
        return replace(h, scopes=tuple(x for x in h.scopes if x != event.scope))
    if isinstance(event, MemoryFramed):
        return replace(h, frame=event.frame)
    return h  # MemoryUnpinNoop, MemoryRefused: audited, change nothing


def check_forget(state: Any) -> None:
    """An anchored memory is not forgotten: it is unpinned first; nor a canonized one:
    it is decanonized first, or its scope ended (docs/model.md, Lifecycle)."""
    if state.pinned:
        raise ProtocolViolation(
            f"memory {state.fact_id} is anchored (pinned): it cannot be forgotten",
            hint="Unpin it first: unpin(memory_id, reason) (`embornal memory unpin ID "
            "--reason '...'`), then forget it.",
        )
    scopes = history_of(state).scopes
    if scopes:
        named = ", ".join(scopes)
        raise ProtocolViolation(
            f"memory {state.fact_id} is in the active canon ({named}): it cannot be forgotten",
            hint="Decanonize it first: decanonize(memory_id, reason) (`embornal canon remove "
            "ID --reason '...'`), or end_scope(scope, reason) (`embornal canon end SCOPE "
            f"--reason '...'`) for {scopes[0]!r}, then forget it.",
        )
