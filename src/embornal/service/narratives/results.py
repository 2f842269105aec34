"""What the narrative use cases return (decisions 0085, 0086): a version as a subject
sees it, the review notice that stands in for an unusable account, and the answer of
``current_narrative``. Each has one wire shape (:mod:`embornal.interfaces.narratives.wire`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["Narrative", "NarrativeReview", "NarrativeView", "SourceIssue"]


@dataclass(frozen=True)
class SourceIssue:
    """A source issue of a version: ``ref`` the memory id or link id, ``issue`` its code
    (``missing``, ``forgotten``, ``stale_interpretation``, ``insufficient_corroboration``,
    ``link_missing``), ``live`` whether it holds now (False: it held after the version was
    approved and has cleared since, which does not approve it again), ``at`` when it arose
    (None: not known)."""

    ref: str
    issue: str
    live: bool
    at: datetime | None = None


@dataclass(frozen=True)
class Narrative:
    """One version of an account. ``usable``: the current version with no source issue
    since its approval (``review_status`` ``current``; else ``stale``, or ``superseded``
    for a version replaced since). ``content`` is None with ``withheld`` when a listing
    withholds stale text (and after a purge of a dependency erased it)."""

    narrative_id: str
    scope: str
    perspective: str
    version: int
    content: str | None
    coverage: str | None
    security_sensitive: bool
    memory_ids: tuple[str, ...]
    link_ids: tuple[str, ...]
    claim_ids: tuple[str, ...]
    recorded_at: datetime
    actor: str
    reason: str | None
    replaces: str | None
    current: bool
    usable: bool
    review_status: str
    provenance_status: str
    source_issues: tuple[SourceIssue, ...] = ()
    reviewed_at: datetime | None = None
    review_note: str | None = None
    withheld: bool = False
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class NarrativeReview:
    """The notice that stands in for an unusable account: its id, status and issues, and
    the call that resolves them — never its text."""

    narrative_id: str
    scope: str
    perspective: str
    review_status: str
    source_issues: tuple[SourceIssue, ...]
    hint: str


@dataclass(frozen=True)
class NarrativeView:
    """The account of a scope: ``narrative`` when usable, else ``narrative_review``; both
    None when the scope has no account the subject may see. ``inspected``: the unusable
    current version with its text, answered to a deliberate inspection
    (``current_narrative``, decision 0157), never to a recall."""

    scope: str
    narrative: Narrative | None = None
    narrative_review: NarrativeReview | None = None
    inspected: Narrative | None = None
