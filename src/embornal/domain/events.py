"""Events: the source of truth. Every change to the memory is one of these.

An event belongs to a stream (a fact's id, a path, a recall) at a version;
``(stream_id, version)`` is unique in the log. Payloads are JSON objects whose
shape is versioned per type; an old payload is upcast on read, the log is
never rewritten (purge redacts content, and records that it did).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "CURRENT_VERSIONS",
    "REDACTED_REASON",
    "ActorKind",
    "Event",
    "EventType",
    "NewEvent",
    "upcast",
]

Payload = dict[str, Any]


# What a purge leaves of the reason of each earlier event of the fact (decision 0006); the
# UPDATE trigger on ``events`` allows this one value.
REDACTED_REASON = "[redacted]"


class ActorKind(StrEnum):
    """Who acted: a person, an assistant, the memory itself, or an importer (seed 001 §5's
    "imported/reconciled" source)."""

    PERSON = "person"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    IMPORT = "import"


class EventType(StrEnum):
    FACT_STORED = "FactStored"
    FACT_FORGOTTEN = "FactForgotten"
    FACT_RESTORED = "FactRestored"
    FACT_PURGED = "FactPurged"
    FACTS_RECALLED = "FactsRecalled"
    PATH_TAGGED = "PathTagged"
    PATH_UNTAGGED = "PathUntagged"
    POLICY_ADDED = "PolicyAdded"
    POLICY_REMOVED = "PolicyRemoved"
    TOKEN_ISSUED = "TokenIssued"
    TOKEN_REVOKED = "TokenRevoked"


CURRENT_VERSIONS: Mapping[str, int] = {t.value: 1 for t in EventType}

# (type, from_version) -> function giving the payload at from_version + 1.
_UPCASTERS: dict[tuple[str, int], Callable[[Payload], Payload]] = {}


def upcast(event_type: str, version: int, payload: Payload) -> Payload:
    """Bring an old payload up to the current shape of its type."""
    current = CURRENT_VERSIONS.get(event_type, version)
    while version < current:
        payload = _UPCASTERS[(event_type, version)](payload)
        version += 1
    return payload


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended (no position yet)."""

    stream_id: str
    type: str
    payload: Payload
    actor: str
    actor_kind: ActorKind
    recorded_at: datetime
    reason: str | None = None
    schema_version: int = 1
    expected_version: int | None = None  # None: append at the stream's next version


@dataclass(frozen=True)
class Event:
    """An event as read back from the log."""

    position: int
    stream_id: str
    version: int
    type: str
    payload: Payload
    actor: str
    actor_kind: str
    recorded_at: datetime
    reason: str | None = None
    schema_version: int = 1
    redacted: bool = field(default=False)
