"""The events of a narrative account (stream ``narrative:<account>``; decision 0085).

An account is one synthesis per (scope, perspective); each ``narrate`` appends a new
version, each ``review_narrative`` a review of the current one. Both record ``checked``:
the dependency streams the decision validated, each as ``<fact id>@<stream version>``.
Whether a version is usable is computed at read time from what its dependencies' streams
did after those versions (decision 0086); the change that first makes the current version
unusable also appends ``NarrativeInvalidated`` to its account, in the same transaction: the
record of it (decision 0142), which decides nothing.

The synthesis, its coverage and a review's note are user text, erased by a purge of any
fact they depend on (the events name the fact, :mod:`embornal.storage.sqlite.purge_narratives`).
"""

from __future__ import annotations

from embornal.domain.events.base import DomainEvent, EventType
from embornal.domain.values import value
from embornal.hints import ClassVar

__all__ = ["NARRATIVE_EVENTS", "NarrativeInvalidated", "NarrativeReviewed", "NarrativeVersioned"]


@value
class NarrativeVersioned(DomainEvent):
    """A new version of the account of ``scope`` seen from ``perspective``, replacing
    ``replaces`` (None: the first). ``sensitive``: asked for, or the content matched the
    screen (``screened``). ``memory_ids``, ``link_ids`` (``SOURCE:relation:TARGET``) and
    ``claim_ids`` are its dependencies; ``checked`` the stream versions validated."""

    TYPE: ClassVar[str] = EventType.NARRATIVE_VERSIONED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("memory_ids",)
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("content", "coverage")
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (
        "narrative_id",
        "scope",
        "perspective",
        "sensitive",
        "screened",
        "memory_ids",
        "link_ids",
        "claim_ids",
        "checked",
        "replaces",
    )
    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("coverage", "replaces")

    narrative_id: str
    scope: str
    perspective: str
    content: str | None
    coverage: str | None = None
    sensitive: bool = False
    screened: tuple[str, ...] = ()
    memory_ids: tuple[str, ...] = ()
    link_ids: tuple[str, ...] = ()
    claim_ids: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()
    replaces: str | None = None


@value
class NarrativeReviewed(DomainEvent):
    """The current version re-approved after its source issues were resolved: its
    dependencies' streams validated again at ``checked``."""

    TYPE: ClassVar[str] = EventType.NARRATIVE_REVIEWED
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("note",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("narrative_id", "checked")

    narrative_id: str
    note: str | None
    checked: tuple[str, ...] = ()


@value
class NarrativeInvalidated(DomainEvent):
    """The current version became unusable: its dependency ``fact_id`` has the source
    issue ``issue`` (forgotten, sensitive without corroboration, overdue for review). The
    reason is that of the change. Usability is still computed when read; this records
    when it was lost, once per approval."""

    TYPE: ClassVar[str] = EventType.NARRATIVE_INVALIDATED
    FACT_ID_FIELDS: ClassVar[tuple[str, ...]] = ("fact_id",)
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("narrative_id", "fact_id", "issue")

    narrative_id: str
    fact_id: str
    issue: str


NARRATIVE_EVENTS: tuple[type[DomainEvent], ...] = (
    NarrativeVersioned,
    NarrativeReviewed,
    NarrativeInvalidated,
)
