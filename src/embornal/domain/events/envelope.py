"""The envelope of an event: where it goes, who did it, when and why, around its body.

An event belongs to a stream (a fact's id, a path, a recall) at a version;
``(stream_id, version)`` is unique in the log.
"""

from __future__ import annotations

from dataclasses import InitVar
from datetime import datetime
from functools import cached_property

from embornal.domain.events.base import ActorKind, DomainEvent, Payload
from embornal.domain.events.registry import EVENTS
from embornal.domain.values import value

__all__ = ["STORED_FIELDS", "Event", "NewEvent"]

#: What the log keeps of an event, one column each, in the order the log's row holds them
#: (an :class:`Event` has these, and whether a purge redacted it).
STORED_FIELDS = (
    "position",
    "stream_id",
    "version",
    "type",
    "schema_version",
    "payload",
    "actor",
    "actor_kind",
    "reason",
    "recorded_at",
)


@value
class NewEvent:
    """An event about to be appended (no position yet).

    ``expected_version``: the stream's version the decision was made on (0: a new stream);
    the append fails with ``ConcurrencyError`` if the stream has moved since. None appends
    at the stream's next version, whatever it is.
    """

    stream_id: str
    body: DomainEvent
    actor: str
    actor_kind: ActorKind
    recorded_at: datetime
    reason: str | None = None
    expected_version: int | None = None

    @property
    def type(self) -> str:
        return self.body.TYPE

    @property
    def schema_version(self) -> int:
        return self.body.VERSION


@value
class Event:
    """An event as read back from the log.

    ``payload`` is the stored JSON object brought up to the current version of its type
    (what the REST API and ``--json`` show); ``schema_version`` is the version it was
    stored at; ``body`` is the typed event, decoded on first use.
    """

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
    redacted: bool = False
    known_body: InitVar[DomainEvent | None] = None

    def __post_init__(self, known_body: DomainEvent | None) -> None:
        if known_body is not None:  # just appended: no need to decode what we encoded
            self.__dict__["body"] = known_body

    @cached_property
    def body(self) -> DomainEvent:
        """The typed body (``UnreadableEvent``: a type or version this build lacks)."""
        if not EVENTS.readable(self.type, self.schema_version):
            return EVENTS.from_stored(self.type, self.schema_version, self.payload)  # raises
        return EVENTS.decode(self.type, self.payload)
