"""Every event body the memory writes, one frozen class per stored type.

Field names are the payload's keys; :mod:`.registry` turns a body into its JSON payload and
back (times as ISO-8601 text, tags as ``[key, value]`` pairs, tuples as lists). A purge
erases the ``TEXT_FIELDS`` of the events of the purged fact (decision 0006).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.facts import DEFAULT_KIND
from embornal.domain.tags import Tag

__all__ = [
    "ALL_EVENT_CLASSES",
    "FactAttributesUpdated",
    "FactForgotten",
    "FactPurged",
    "FactRestored",
    "FactStored",
    "FactsRecalled",
    "PathTagged",
    "PathUntagged",
    "PolicyAdded",
    "PolicyRemoved",
    "TokenIssued",
    "TokenRevoked",
]


# -- facts (stream: the fact's id) -------------------------------------------------------


@dataclass(frozen=True)
class FactStored(DomainEvent):
    """A new fact; ``supersedes_id`` names the fact it corrects. ``content`` is None, and
    ``tags`` only the owner's, once the fact is purged.

    ``attributes`` is the kind's canonical payload (validated when decided) at schema
    version ``kind_version``; both are left out when the fact has none (every fact stored
    before kinds, and a ``fact`` whose statement is its content), so old payloads read
    unchanged. A payload with attributes but no ``kind_version`` is at version 1.
    """

    TYPE: ClassVar[str] = EventType.FACT_STORED.value
    VERSION: ClassVar[int] = 1
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("content", "attributes", "tags")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "path",
        "owner",
        "created_at",
        "kind",
        "supersedes_id",
        "kind_version",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("attributes", "kind_version")

    fact_id: str
    path: str
    content: str | None
    owner: str
    created_at: datetime
    tags: tuple[Tag, ...] = ()
    kind: str = DEFAULT_KIND
    supersedes_id: str | None = None
    attributes: Mapping[str, Any] | None = None
    kind_version: int | None = None


@dataclass(frozen=True)
class FactAttributesUpdated(DomainEvent):
    """A sparse change of a fact's attributes (seed 001's ``MemoryAttributesUpdated``):
    ``changes`` maps each changed field to its new canonical value, None removing it; the
    result was validated whole against the kind's schema at ``kind_version``."""

    TYPE: ClassVar[str] = EventType.FACT_ATTRIBUTES_UPDATED.value
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("changes",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "kind_version")

    fact_id: str
    changes: Mapping[str, Any] | None
    kind_version: int = 1


@dataclass(frozen=True)
class FactForgotten(DomainEvent):
    """The fact leaves recall; restorable."""

    TYPE: ClassVar[str] = EventType.FACT_FORGOTTEN.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


@dataclass(frozen=True)
class FactRestored(DomainEvent):
    """A forgotten fact comes back into recall."""

    TYPE: ClassVar[str] = EventType.FACT_RESTORED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


@dataclass(frozen=True)
class FactPurged(DomainEvent):
    """The fact's content is erased everywhere, its earlier events redacted."""

    TYPE: ClassVar[str] = EventType.FACT_PURGED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


# -- recall (stream: recall:<id>) ----------------------------------------------------------


@dataclass(frozen=True)
class FactsRecalled(DomainEvent):
    """One recall: the facts it returned, each lifted in strength at ``at``."""

    TYPE: ClassVar[str] = EventType.FACTS_RECALLED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_ids", "at")

    fact_ids: tuple[str, ...]
    at: datetime


# -- paths (stream: path:<path>) ----------------------------------------------------------


@dataclass(frozen=True)
class PathTagged(DomainEvent):
    """The actor's tags on a path, for the actor's facts below it (decision 0021)."""

    TYPE: ClassVar[str] = EventType.PATH_TAGGED.value
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("tags",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("path",)

    path: str
    tags: tuple[Tag, ...]


@dataclass(frozen=True)
class PathUntagged(DomainEvent):
    """The actor's tags of these keys come off a path (keys are labels, not text)."""

    TYPE: ClassVar[str] = EventType.PATH_UNTAGGED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("path", "keys")

    path: str
    keys: tuple[str, ...]


# -- sharing (streams: policy, token:<id>) ------------------------------------------------


@dataclass(frozen=True)
class PolicyAdded(DomainEvent):
    """One Casbin rule: ``ptype`` and its values (subjects, roles, paths, actions)."""

    TYPE: ClassVar[str] = EventType.POLICY_ADDED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("ptype", "values")

    ptype: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class PolicyRemoved(DomainEvent):
    TYPE: ClassVar[str] = EventType.POLICY_REMOVED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("ptype", "values")

    ptype: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class TokenIssued(DomainEvent):
    """A bearer token for ``subject`` (only its hash); ``name`` is the person's label."""

    TYPE: ClassVar[str] = EventType.TOKEN_ISSUED.value
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("token_id", "subject", "token_hash", "expires_at")

    token_id: str
    subject: str
    token_hash: str
    name: str | None = None
    expires_at: datetime | None = None


@dataclass(frozen=True)
class TokenRevoked(DomainEvent):
    TYPE: ClassVar[str] = EventType.TOKEN_REVOKED.value
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("token_id",)

    token_id: str


ALL_EVENT_CLASSES: tuple[type[DomainEvent], ...] = (
    FactStored,
    FactAttributesUpdated,
    FactForgotten,
    FactRestored,
    FactPurged,
    FactsRecalled,
    PathTagged,
    PathUntagged,
    PolicyAdded,
    PolicyRemoved,
    TokenIssued,
    TokenRevoked,
)
