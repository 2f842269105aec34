"""The events of a claim's stream (``claim:<id>``): the claims ledger (docs/model.md,
Claims; decision 0081).

A claim is a judgment about material, apart from the material: created (proposed), given
evidence (a memory of the store, or a source label), adopted, revised, superseded by a
replacement or withdrawn. The reason of each decision is the envelope's. The statement,
the attribution and every evidence text (source, note, quote, locator, common origin)
are user text, erased by a purge of a memory the claim cites.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.events.base import DomainEvent
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = [
    "CLAIM_EVENTS",
    "ClaimAdopted",
    "ClaimCreated",
    "ClaimEvidenceAdded",
    "ClaimEvidenceRetracted",
    "ClaimRevised",
    "ClaimSuperseded",
    "ClaimWithdrawn",
]


@value
class ClaimCreated(DomainEvent):
    """A proposed claim: its statement, type, scope, who asserted it and when (declared by
    the caller), the valid time ``[valid_from, valid_until)`` (None: unknown), the memories
    it is about, and whether it is sensitive (asked, or ``screened``: the shapes matched)."""

    TYPE: ClassVar[str] = "ClaimCreated"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("about",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("statement", "asserted_by")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "claim_id",
        "claim_type",
        "scope",
        "statement_at",
        "valid_from",
        "valid_until",
        "about",
        "sensitive",
        "screened",
    )

    claim_id: str
    statement: str | None
    claim_type: str
    scope: str = "global"
    asserted_by: str | None = None
    statement_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    about: tuple[str, ...] = ()
    sensitive: bool = False
    screened: tuple[str, ...] = ()


@value
class ClaimEvidenceAdded(DomainEvent):
    """Evidence for one claim: a memory of the store (``memory_id``) or a source label
    (``source``), its stance (supports, challenges, context), a note, a quote and a locator,
    and the common origin it declares it repeats (None: its own)."""

    TYPE: ClassVar[str] = "ClaimEvidenceAdded"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("memory_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("source", "note", "quote", "locator", "common_origin")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id", "evidence_id", "memory_id", "stance")

    claim_id: str
    evidence_id: str
    stance: str
    memory_id: str | None = None
    source: str | None = None
    note: str | None = None
    quote: str | None = None
    locator: str | None = None
    common_origin: str | None = None


@value
class ClaimEvidenceRetracted(DomainEvent):
    """One evidence association retired (the material is untouched)."""

    TYPE: ClassVar[str] = "ClaimEvidenceRetracted"
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id", "evidence_id")

    claim_id: str
    evidence_id: str


@value
class ClaimAdopted(DomainEvent):
    """The judgment recorded: the claim is adopted (or re-reviewed); ``replaces``: the claim
    it replaces when a revision adopted it."""

    TYPE: ClassVar[str] = "ClaimAdopted"
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id", "replaces")
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("replaces",)

    claim_id: str
    replaces: str | None = None


@value
class ClaimRevised(DomainEvent):
    """A new version of the claim: its statement and valid time as they are from now on
    (the earlier versions stay in the stream)."""

    TYPE: ClassVar[str] = "ClaimRevised"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("statement",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id", "valid_from", "valid_until")

    claim_id: str
    statement: str | None
    valid_from: datetime | None = None
    valid_until: datetime | None = None


@value
class ClaimSuperseded(DomainEvent):
    """The adopted claim is replaced by ``replacement_id`` (adopted in the same append)."""

    TYPE: ClassVar[str] = "ClaimSuperseded"
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id", "replacement_id")

    claim_id: str
    replacement_id: str


@value
class ClaimWithdrawn(DomainEvent):
    """The judgment ended (terminal: a later change of course is a new claim)."""

    TYPE: ClassVar[str] = "ClaimWithdrawn"
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("claim_id",)

    claim_id: str


CLAIM_EVENTS: tuple[type[DomainEvent], ...] = (
    ClaimCreated,
    ClaimEvidenceAdded,
    ClaimEvidenceRetracted,
    ClaimAdopted,
    ClaimRevised,
    ClaimSuperseded,
    ClaimWithdrawn,
)
