"""The base of every typed event body, the actor kinds and the stored type names.

An event is an envelope (stream, actor, time, reason: :mod:`.envelope`) around a typed
body, a frozen dataclass derived from :class:`DomainEvent`. Each body class says:

* ``TYPE``: the name stored in ``events.type`` (never changes once written);
* ``VERSION``: the schema version of its payload, stored in ``events.schema_version``;
* ``UPCASTERS``: ``{n: f}``, each ``f`` taking a stored payload from version n to n+1;
* ``TEXT_FIELDS``: the fields that hold user text, erased by a purge (decision 0006);
* ``PLAIN_FIELDS``: every other field (ids, paths, names of the memory, times). Every
  field is in exactly one of the two: the registry refuses a class that leaves one out,
  so a new field with text cannot slip past purge unnoticed.
* ``OMIT_IF_NONE``: fields left out of the payload when None (added after the first
  payloads were written, so that the stored format of old events stays the same).
* ``FACT_ID_FIELDS``: the plain fields that name a fact (an id, or a tuple of ids). Where
  an event is shown to a subject, an id it may not read reads :data:`HIDDEN_ID` instead
  (decision 0130); nothing else knows which keys name facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType

from embornal.domain.values import value
from embornal.hints import Any, ClassVar

__all__ = [
    "HIDDEN_ID",
    "REDACTED_KEY",
    "REDACTED_REASON",
    "ActorKind",
    "DomainEvent",
    "EventType",
    "Payload",
    "Upcaster",
]

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]

# What a purge leaves of the reason of each earlier event of the fact (decision 0006); the
# UPDATE trigger on ``events`` allows this one value.
REDACTED_REASON = "[redacted]"
# The mark a purge puts into each payload it redacts (not a field of any body).
REDACTED_KEY = "redacted"
# What a subject reads in place of the id of a fact it may not read, in a payload shown to
# it (decision 0130): never an id (ids are 26 characters of 0-9 and A-Z).
HIDDEN_ID = "[hidden]"


class ActorKind(StrEnum):
    """Who acted: a person, an assistant, the memory itself, or an importer (docs/model.md,
    Events and projections)."""

    PERSON = "person"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    IMPORT = "import"


class EventType:
    """The stored type names (``events.type``); each names one body class. Text constants,
    not an enum: every command loads this module, and building a 51-member ``StrEnum``
    took about 6 M instructions of a recall's 255 M (decision 0195)."""

    FACT_STORED = "FactStored"
    FACT_ATTRIBUTES_UPDATED = "FactAttributesUpdated"
    FACT_FORGOTTEN = "FactForgotten"
    FACT_RESTORED = "FactRestored"
    FACT_PURGED = "FactPurged"
    FACT_CONFIRMED = "FactConfirmed"
    FACT_CONTRADICTED = "FactContradicted"
    FACT_EVIDENCE_ADDED = "FactEvidenceAdded"
    FACT_CONFIDENCE_RESET = "FactConfidenceReset"
    FACT_VISIBILITY_CHANGED = "FactVisibilityChanged"
    FACT_IMPORTANCE_ADJUSTED = "FactImportanceAdjusted"
    FACT_LIFETIME_CHANGED = "FactLifetimeChanged"
    FACTS_RECALLED = "FactsRecalled"
    PATH_TAGGED = "PathTagged"
    PATH_UNTAGGED = "PathUntagged"
    POLICY_ADDED = "PolicyAdded"
    POLICY_REMOVED = "PolicyRemoved"
    TOKEN_ISSUED = "TokenIssued"
    TOKEN_REVOKED = "TokenRevoked"
    CONFLICT_OPENED = "ConflictOpened"
    CONFLICT_RESOLVED = "ConflictResolved"
    FACT_LINKED = "FactLinked"
    FACT_UNLINKED = "FactUnlinked"
    FACT_MERGED = "FactMerged"
    PROPOSAL_OPENED = "ProposalOpened"
    PROPOSAL_EDITED = "ProposalEdited"
    PROPOSAL_APPROVED = "ProposalApproved"
    PROPOSAL_REJECTED = "ProposalRejected"
    # the history protocol's (events/protocol.py, decision 0064)
    MEMORY_CAPTURED = "MemoryCaptured"
    MEMORY_PROMOTED = "MemoryPromoted"
    MEMORY_CORROBORATED = "MemoryCorroborated"
    MEMORY_TIER_CHANGED = "MemoryTierChanged"
    MEMORY_REVIEWED = "MemoryReviewed"
    MEMORY_FLAGGED_SENSITIVE = "MemoryFlaggedSensitive"
    MEMORY_UNPIN_NOOP = "MemoryUnpinNoop"
    MEMORY_REFUSED = "MemoryRefused"  # decision 0142
    MEMORY_REVIEW_OVERDUE = "MemoryReviewOverdue"
    # canon and frames (events/canon.py, decision 0078)
    MEMORY_CANONIZED = "MemoryCanonized"
    MEMORY_DECANONIZED = "MemoryDecanonized"
    MEMORY_FRAMED = "MemoryFramed"
    MEMORY_CONTEXT_SET = "MemoryContextSet"
    # narrative accounts' (events/narratives.py, decision 0085)
    NARRATIVE_VERSIONED = "NarrativeVersioned"
    NARRATIVE_REVIEWED = "NarrativeReviewed"
    NARRATIVE_INVALIDATED = "NarrativeInvalidated"  # decision 0142
    # the claims ledger's (events/claims.py, decision 0081)
    CLAIM_CREATED = "ClaimCreated"
    CLAIM_EVIDENCE_ADDED = "ClaimEvidenceAdded"
    CLAIM_EVIDENCE_RETRACTED = "ClaimEvidenceRetracted"
    CLAIM_ADOPTED = "ClaimAdopted"
    CLAIM_REVISED = "ClaimRevised"
    CLAIM_SUPERSEDED = "ClaimSuperseded"
    CLAIM_WITHDRAWN = "ClaimWithdrawn"


@value
class DomainEvent:
    """The typed body of one event. Subclasses are frozen dataclasses (see the module)."""

    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    UPCASTERS: ClassVar[Mapping[int, Upcaster]] = MappingProxyType({})
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ()
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ()
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ()
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ()
