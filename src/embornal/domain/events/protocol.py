"""The events of the history protocol (decision 0064), in the stream of the fact they are
about: capture as working material, promotion, corroboration, a tier reached through it,
the review of an interpretation, a sensitivity flag and an audited no-op unpin; and,
changing nothing but the record (decision 0142), a pin, canonize or narrate the
corroboration gate refused, and an interpretation found overdue for review.

The reason of each decision is the envelope's (``promote(id, reason)``), as for every
other event; a review's note, a corroboration's source labels and a session are user
text, erased by a purge. Pins stay
:class:`~embornal.domain.events.types.FactImportanceAdjusted` (decision 0065).
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.events.base import DomainEvent
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = [
    "PROTOCOL_EVENTS",
    "MemoryCaptured",
    "MemoryContextSet",
    "MemoryCorroborated",
    "MemoryFlaggedSensitive",
    "MemoryPromoted",
    "MemoryRefused",
    "MemoryReviewOverdue",
    "MemoryReviewed",
    "MemoryTierChanged",
    "MemoryUnpinNoop",
]


@value
class MemoryCaptured(DomainEvent):
    """The fact stored just before it in the stream is a memory captured by ``remember``:
    working material of ``tier`` (``archive`` or ``interpretation``), sensitive when the
    caller said so or the screen matched (``screened``: the names of the shapes matched),
    in the capture ``session`` (None: none given); ``event_at``: when the event it tells
    of happened (valid time; None: unknown), ``session_position``: its place in the
    session (decision 0088). What the caller declared of the material (decision 0156):
    ``material_type`` (``document``, ``utterance``, ``observation`` or ``summary``; None:
    unspecified), ``origin_id`` (the original it repeats, shared by its reposts; None:
    unknown) and ``capture_context`` (how it was collected; None: not said)."""

    TYPE: ClassVar[str] = "MemoryCaptured"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("session", "origin_id", "capture_context")
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "tier",
        "sensitive",
        "screened",
        "event_at",
        "session_position",
        "material_type",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = (
        "session",
        "event_at",
        "session_position",
        "material_type",
        "origin_id",
        "capture_context",
    )

    fact_id: str
    tier: str = "archive"
    sensitive: bool = False
    screened: tuple[str, ...] = ()
    session: str | None = None
    event_at: datetime | None = None
    session_position: int | None = None
    material_type: str | None = None
    origin_id: str | None = None
    capture_context: str | None = None


@value
class MemoryContextSet(DomainEvent):
    """The memory's history context corrected (``set_history_context``): the whole of it
    is replaced (None: unknown), and the context it had is kept alongside, so the log
    says what changed (decision 0088)."""

    TYPE: ClassVar[str] = "MemoryContextSet"
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("session", "previous_session")
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "fact_id",
        "event_at",
        "session_position",
        "previous_event_at",
        "previous_position",
    )

    fact_id: str
    event_at: datetime | None = None
    session: str | None = None
    session_position: int | None = None
    previous_event_at: datetime | None = None
    previous_session: str | None = None
    previous_position: int | None = None


@value
class MemoryPromoted(DomainEvent):
    """Working material becomes consolidated (the reason says why); its truth is unchanged."""

    TYPE: ClassVar[str] = "MemoryPromoted"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


@value
class MemoryCorroborated(DomainEvent):
    """One corroborating source label, and the origin it declares it repeats (None: its
    own); recorded every time, a repeat that adds nothing too."""

    TYPE: ClassVar[str] = "MemoryCorroborated"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("source", "common_origin")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("common_origin",)

    fact_id: str
    source: str | None
    common_origin: str | None = None


@value
class MemoryTierChanged(DomainEvent):
    """The provenance tier changes (``archive`` → ``testimony`` once the corroboration gate
    is met)."""

    TYPE: ClassVar[str] = "MemoryTierChanged"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "tier", "previous")

    fact_id: str
    tier: str
    previous: str = "archive"


@value
class MemoryReviewed(DomainEvent):
    """An interpretation re-examined: its review clock starts again."""

    TYPE: ClassVar[str] = "MemoryReviewed"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("note",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str
    note: str | None


@value
class MemoryFlaggedSensitive(DomainEvent):
    """The memory is security-sensitive from now on (``screened``: the shapes a screen
    matched, none when a caller flagged it)."""

    TYPE: ClassVar[str] = "MemoryFlaggedSensitive"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "screened")

    fact_id: str
    screened: tuple[str, ...] = ()


@value
class MemoryUnpinNoop(DomainEvent):
    """An unpin of a memory that was not pinned: audited, changing nothing."""

    TYPE: ClassVar[str] = "MemoryUnpinNoop"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)

    fact_id: str


@value
class MemoryRefused(DomainEvent):
    """A ``pin``, ``canonize`` or ``narrate`` (``operation``) the protocol refused for this
    memory because of ``issue`` (the corroboration gate: ``insufficient_corroboration``):
    audited as ``<operation>_denied``, changing nothing. The reason is the call's."""

    TYPE: ClassVar[str] = "MemoryRefused"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "operation", "issue")

    fact_id: str
    operation: str
    issue: str


@value
class MemoryReviewOverdue(DomainEvent):
    """An interpretation found overdue by ``due_for_review(days)``: stale until it is
    reviewed again, and the narratives resting on it unusable until reviewed too."""

    TYPE: ClassVar[str] = "MemoryReviewOverdue"
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id", "days")

    fact_id: str
    days: int


PROTOCOL_EVENTS: tuple[type[DomainEvent], ...] = (
    MemoryCaptured,
    MemoryPromoted,
    MemoryCorroborated,
    MemoryTierChanged,
    MemoryReviewed,
    MemoryFlaggedSensitive,
    MemoryUnpinNoop,
    MemoryContextSet,
    MemoryRefused,
    MemoryReviewOverdue,
)
