"""Every event body the memory writes, one frozen class per stored type.

Field names are the payload's keys; :mod:`.registry` turns a body into its JSON payload and
back (times as ISO-8601 text, tags as ``[key, value]`` pairs, tuples as lists). A purge
erases the ``TEXT_FIELDS`` of the events of the purged fact (decision 0006).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.events.canon import CANON_EVENTS
from embornal.domain.events.claims import CLAIM_EVENTS
from embornal.domain.events.conflicts import CONFLICT_EVENT_CLASSES
from embornal.domain.events.graph import GRAPH_EVENT_CLASSES, FactLinked, FactUnlinked
from embornal.domain.events.narratives import NARRATIVE_EVENTS
from embornal.domain.events.proposals import PROPOSAL_EVENTS
from embornal.domain.events.protocol import PROTOCOL_EVENTS
from embornal.domain.events.recalled import FactsRecalled
from embornal.domain.facts.fact import DEFAULT_KIND
from embornal.domain.facts.tags import Tag
from embornal.domain.spine.justification import EvidenceRef
from embornal.domain.values import value
from embornal.hints import Any, ClassVar

__all__ = [
    "ALL_EVENT_CLASSES",
    "UNDOING_EVENTS",
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
    "PathTagged",
    "PathUntagged",
    "PolicyAdded",
    "PolicyRemoved",
    "TokenIssued",
    "TokenRevoked",
    "evidence_fields",
]


# -- facts (stream: the fact's id) -------------------------------------------------------


@value
class FactStored(DomainEvent):
    """A new fact; ``supersedes_id`` names the fact it corrects. ``content`` is None, and
    ``tags`` only the owner's, once the fact is purged.

    ``attributes`` is the kind's canonical payload (validated when decided) at schema
    version ``kind_version``; both are left out when the fact has none (every fact stored
    before kinds, and a ``fact`` whose statement is its content), so old payloads read
    unchanged. A payload with attributes but no ``kind_version`` is at version 1.

    ``confidence`` is the one given at creation (0..1); None, and left out, when none was
    given: the fact then starts at the prior of the event's actor kind (decision 0032).

    ``source`` is a free label of who put it here beyond the envelope's actor and actor
    kind (a client or session id: user text, erased by a purge); ``visibility`` its text
    form (``private``, ``restricted:alice,bob``; None: shared); evidence given at creation
    travels as three parallel tuples (types plain; values and notes user text, a note ''
    for none). Each is left out when None, so a fact stored before them reads as shared,
    with no label and no evidence (decision 0037).
    ``lifetime`` is its retention policy as text (``permanent``, ``ephemeral``,
    ``until:YYYY-MM-DD``); None, and left out, for ``standard`` (decision 0035).
    """

    TYPE: ClassVar[str] = EventType.FACT_STORED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "supersedes_id")
    VERSION: ClassVar[int] = 1
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = (
        "content",
        "attributes",
        "tags",
        "evidence_values",
        "evidence_notes",
        "source",
    )
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "path",
        "owner",
        "created_at",
        "kind",
        "supersedes_id",
        "kind_version",
        "confidence",
        "visibility",
        "evidence_types",
        "lifetime",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = (
        "attributes",
        "kind_version",
        "confidence",
        "source",
        "visibility",
        "evidence_types",
        "evidence_values",
        "evidence_notes",
        "lifetime",
    )

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
    confidence: float | None = None
    source: str | None = None
    visibility: str | None = None
    evidence_types: tuple[str, ...] | None = None
    evidence_values: tuple[str, ...] | None = None
    evidence_notes: tuple[str, ...] | None = None

    @property
    def evidence(self) -> tuple[EvidenceRef, ...]:
        """The evidence given at creation (none once a purge erased its values)."""
        types, values, notes = self.evidence_types, self.evidence_values, self.evidence_notes
        if not types or values is None:
            return ()
        notes = notes or ("",) * len(types)
        out = (_evidence_of(t, v, n or None) for t, v, n in zip(types, values, notes, strict=False))
        return tuple(e for e in out if e is not None)

    lifetime: str | None = None


@value
class FactAttributesUpdated(DomainEvent):
    """A sparse change of a fact's attributes (docs/model.md, Fact and path):
    ``changes`` maps each changed field to its new canonical value, None removing it; the
    result was validated whole against the kind's schema at ``kind_version``."""

    TYPE: ClassVar[str] = EventType.FACT_ATTRIBUTES_UPDATED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("changes",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "kind_version", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    fact_id: str
    changes: Mapping[str, Any] | None
    kind_version: int = 1
    undoes: int | None = None


@value
class _RecallSwitch(DomainEvent):
    """The body of a forget and of a restore: the fact alone, and ``undoes`` when the
    event is an undo. Each subclass is its own stored type."""

    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    fact_id: str
    undoes: int | None = None


@value
class FactForgotten(_RecallSwitch):
    """The fact leaves recall; restorable."""

    TYPE: ClassVar[str] = EventType.FACT_FORGOTTEN


@value
class FactRestored(_RecallSwitch):
    """A forgotten fact comes back into recall."""

    TYPE: ClassVar[str] = EventType.FACT_RESTORED


@value
class FactPurged(DomainEvent):
    """The fact's content is erased everywhere, its earlier events redacted."""

    TYPE: ClassVar[str] = EventType.FACT_PURGED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


# -- the justification spine (stream: the fact's id) -------------------------------------
#
# Evidence travels as three fields: its type (a label, plain) and its value and note (user
# text, erased by a purge). Confidence is never stored in these events: the fold applies
# the maths of :mod:`embornal.domain.spine.confidence` with the weight of the envelope's actor
# kind, so a retune of the weights re-scores the whole history.

_EVIDENCE_TEXT: tuple[str, ...] = ("evidence_value", "evidence_note")
_EVIDENCE_OMIT: tuple[str, ...] = ("evidence_type", "evidence_value", "evidence_note")


def _evidence_of(kind: str | None, value: str | None, note: str | None) -> EvidenceRef | None:
    """The evidence of an event (None: none, or its value erased by a purge)."""
    if kind is None or value is None:
        return None
    return EvidenceRef(kind, value, note)  # type: ignore[arg-type]  # parsed from its text


def evidence_fields(evidence: EvidenceRef | None) -> dict[str, str | None]:
    """The three payload fields of ``evidence`` (all None for none)."""
    if evidence is None:
        return {"evidence_type": None, "evidence_value": None, "evidence_note": None}
    return {
        "evidence_type": evidence.type.value,
        "evidence_value": evidence.value,
        "evidence_note": evidence.note,
    }


class _OneEvidence:
    """The ``evidence`` of a body that carries one piece in its three evidence fields."""

    evidence_type: str | None
    evidence_value: str | None
    evidence_note: str | None

    @property
    def evidence(self) -> EvidenceRef | None:
        return _evidence_of(self.evidence_type, self.evidence_value, self.evidence_note)


@value
class FactConfirmed(_OneEvidence, DomainEvent):
    """Someone vouches for the fact (decision 0032), with optional evidence:
    confidence moves toward 1 by the weight of the actor kind; sets last_confirmed_at."""

    TYPE: ClassVar[str] = EventType.FACT_CONFIRMED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = _EVIDENCE_TEXT
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "evidence_type")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = _EVIDENCE_OMIT

    fact_id: str
    evidence_type: str | None = None
    evidence_value: str | None = None
    evidence_note: str | None = None


@value
class FactContradicted(_OneEvidence, DomainEvent):
    """Someone disputes the fact (decision 0032): confidence decays by
    the weight of the actor kind. ``by_id`` names the contradicting fact, if one does;
    its evidence is against the fact, so it does not join the fact's evidence."""

    TYPE: ClassVar[str] = EventType.FACT_CONTRADICTED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "by_id")
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = _EVIDENCE_TEXT
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "by_id", "evidence_type")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("by_id", *_EVIDENCE_OMIT)

    fact_id: str
    by_id: str | None = None
    evidence_type: str | None = None
    evidence_value: str | None = None
    evidence_note: str | None = None


@value
class FactEvidenceAdded(_OneEvidence, DomainEvent):
    """One more :class:`~embornal.domain.spine.justification.EvidenceRef` for the fact
    (append-only): a weak confirm. ``evidence_value`` is None only once a purge erased it."""

    TYPE: ClassVar[str] = EventType.FACT_EVIDENCE_ADDED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = _EVIDENCE_TEXT
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "evidence_type")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("evidence_note",)

    fact_id: str
    evidence_type: str
    evidence_value: str | None
    evidence_note: str | None = None


@value
class FactConfidenceReset(DomainEvent):
    """The confidence and ``last_confirmed_at`` of the fact set back to what they were
    before the event at log position ``undoes`` (the undo of a confirm, a contradiction,
    a piece of evidence, or of another reset; decision 0043). Evidence is append-only:
    the undo of a piece of evidence withdraws its confirmation, the evidence stays."""

    TYPE: ClassVar[str] = EventType.FACT_CONFIDENCE_RESET
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "confidence",
        "last_confirmed_at",
        "undoes",
    )

    fact_id: str
    confidence: float
    last_confirmed_at: datetime | None
    undoes: int | None = None


@value
class FactVisibilityChanged(DomainEvent):
    """Who may see the fact changes (decision 0038): ``visibility``
    is the text form of the new one (``shared``, ``private``, ``restricted:alice,bob``);
    subject names are not user text (decision 0037)."""

    TYPE: ClassVar[str] = EventType.FACT_VISIBILITY_CHANGED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "visibility", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    fact_id: str
    visibility: str
    undoes: int | None = None


@value
class FactImportanceAdjusted(DomainEvent):
    """Pin, unpin or an explicit user weight (decision 0034): the
    importance after the change, whole (``pinned``; ``user_weight`` 0..1, None: none),
    and the one before it, so the history reads as a change and an undo can put it back."""

    TYPE: ClassVar[str] = EventType.FACT_IMPORTANCE_ADJUSTED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "pinned",
        "user_weight",
        "previous_pinned",
        "previous_user_weight",
        "undoes",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("user_weight", "previous_user_weight", "undoes")

    fact_id: str
    pinned: bool
    user_weight: float | None = None
    previous_pinned: bool = False
    previous_user_weight: float | None = None
    undoes: int | None = None


@value
class FactLifetimeChanged(DomainEvent):
    """The retention policy changes (decision 0035): ``lifetime`` and
    ``previous`` as text (``permanent``, ``standard``, ``ephemeral``, ``until:YYYY-MM-DD``).
    An ephemeral horizon counts from this event."""

    TYPE: ClassVar[str] = EventType.FACT_LIFETIME_CHANGED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "lifetime", "previous", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    fact_id: str
    lifetime: str
    previous: str = "standard"
    undoes: int | None = None


# -- recall (stream: recall:<id>) ----------------------------------------------------------


# -- paths (stream: path:<path>) ----------------------------------------------------------


@value
class PathTagged(DomainEvent):
    """The actor's tags on a path, for the actor's facts below it (decision 0021)."""

    TYPE: ClassVar[str] = EventType.PATH_TAGGED
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("tags",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("path", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    path: str
    tags: tuple[Tag, ...]
    undoes: int | None = None


@value
class PathUntagged(DomainEvent):
    """The actor's tags of these keys come off a path (keys are labels, not text)."""

    TYPE: ClassVar[str] = EventType.PATH_UNTAGGED
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("path", "keys", "undoes")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("undoes",)

    path: str
    keys: tuple[str, ...]
    undoes: int | None = None


# -- sharing (streams: policy, token:<id>) ------------------------------------------------


@value
class _PolicyRule(DomainEvent):
    """The body of a rule added or removed: ``ptype`` and its values. Each subclass is its
    own stored type."""

    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("ptype", "values")

    ptype: str
    values: tuple[str, ...]


@value
class PolicyAdded(_PolicyRule):
    """One Casbin rule: ``ptype`` and its values (subjects, roles, paths, actions)."""

    TYPE: ClassVar[str] = EventType.POLICY_ADDED


@value
class PolicyRemoved(_PolicyRule):
    """An access rule removed."""

    TYPE: ClassVar[str] = EventType.POLICY_REMOVED


@value
class TokenIssued(DomainEvent):
    """A bearer token for ``subject`` (only its hash); ``name`` is the person's label.
    ``actor_kind``: who holds it, ``person`` or ``assistant`` (None, as every token issued
    before it was recorded: an assistant), the actor kind of what the token writes."""

    TYPE: ClassVar[str] = EventType.TOKEN_ISSUED
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("name",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "token_id",
        "subject",
        "token_hash",
        "expires_at",
        "actor_kind",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("actor_kind",)

    token_id: str
    subject: str
    token_hash: str
    name: str | None = None
    expires_at: datetime | None = None
    actor_kind: str | None = None


@value
class TokenRevoked(DomainEvent):
    """A bearer token revoked."""

    TYPE: ClassVar[str] = EventType.TOKEN_REVOKED
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("token_id",)

    token_id: str


ALL_EVENT_CLASSES: tuple[type[DomainEvent], ...] = (
    FactStored,
    FactAttributesUpdated,
    FactForgotten,
    FactRestored,
    FactPurged,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactConfidenceReset,
    FactVisibilityChanged,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    FactsRecalled,
    PathTagged,
    PathUntagged,
    PolicyAdded,
    PolicyRemoved,
    TokenIssued,
    TokenRevoked,
    *CONFLICT_EVENT_CLASSES,
    *GRAPH_EVENT_CLASSES,
    *PROPOSAL_EVENTS,
    *PROTOCOL_EVENTS,  # the history protocol's (decision 0064)
    *CANON_EVENTS,  # canon and frames (decision 0078)
    *NARRATIVE_EVENTS,  # narrative accounts' (decision 0085)
    *CLAIM_EVENTS,  # the claims ledger's (decision 0081)
)

#: The compensating events of an undo carry ``undoes``: the log position of the event
#: they undo (decision 0043). None on every other event, and left out of its payload.
UNDOING_EVENTS: tuple[type[DomainEvent], ...] = (
    FactForgotten,
    FactRestored,
    FactAttributesUpdated,
    FactConfidenceReset,
    FactVisibilityChanged,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    PathTagged,
    PathUntagged,
    FactLinked,
    FactUnlinked,
)
