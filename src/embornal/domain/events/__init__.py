"""Events: the source of truth. Every change to the memory is one of these.

Each event is an envelope (:class:`NewEvent` to append, :class:`Event` read back) around a
typed, frozen, versioned body (:mod:`.types`) that declares which of its fields hold user
text. :data:`EVENTS` maps bodies to stored payloads and back, chaining each class's
upcasters; the log is never rewritten (a purge redacts text, and records that it did).

The classes of :mod:`.types` are imported when one of them is first named: a recall,
which writes only :class:`FactsRecalled`, does not make the others (decision 0050).
"""

from __future__ import annotations

from embornal.domain.events.base import (
    HIDDEN_ID,
    REDACTED_KEY,
    REDACTED_REASON,
    ActorKind,
    DomainEvent,
    EventType,
    Payload,
    Upcaster,
)
from embornal.domain.events.envelope import Event, NewEvent
from embornal.domain.events.recalled import FactsRecalled
from embornal.domain.events.registry import EVENTS, EventRegistry, from_stored, to_payload
from embornal.hints import TYPE_CHECKING
from embornal.lazy import exports

if TYPE_CHECKING:
    from embornal.domain.events.types import (
        ALL_EVENT_CLASSES,
        UNDOING_EVENTS,
        FactAttributesUpdated,
        FactConfidenceReset,
        FactConfirmed,
        FactContradicted,
        FactEvidenceAdded,
        FactForgotten,
        FactImportanceAdjusted,
        FactLifetimeChanged,
        FactPurged,
        FactRestored,
        FactStored,
        FactVisibilityChanged,
        PathTagged,
        PathUntagged,
        PolicyAdded,
        PolicyRemoved,
        TokenIssued,
        TokenRevoked,
        evidence_fields,
    )

__all__ = [
    "ALL_EVENT_CLASSES",
    "EVENTS",
    "HIDDEN_ID",
    "REDACTED_KEY",
    "REDACTED_REASON",
    "UNDOING_EVENTS",
    "ActorKind",
    "DomainEvent",
    "Event",
    "EventRegistry",
    "EventType",
    "FactAttributesUpdated",
    "FactConfidenceReset",
    "FactConfirmed",
    "FactContradicted",
    "FactEvidenceAdded",
    "FactForgotten",
    "FactImportanceAdjusted",
    "FactLifetimeChanged",
    "FactPurged",
    "FactRestored",
    "FactStored",
    "FactVisibilityChanged",
    "FactsRecalled",
    "NewEvent",
    "PathTagged",
    "PathUntagged",
    "Payload",
    "PolicyAdded",
    "PolicyRemoved",
    "TokenIssued",
    "TokenRevoked",
    "Upcaster",
    "evidence_fields",
    "from_stored",
    "to_payload",
]

#: The names of :mod:`.types`, imported on first use: each name of ``__all__`` not bound above.
__getattr__, __dir__ = exports(
    __name__, {name: ".types" for name in __all__ if name not in globals()}
)
