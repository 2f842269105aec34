"""The results of the proposal and retention use cases (plain frozen dataclasses; the
wire shapes are their fields in order)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from datetime import datetime

from embornal.domain.values import value
from embornal.hints import Any

__all__ = [
    "Proposal",
    "ProposalItem",
    "ProposalSummary",
    "PruneResult",
    "RetentionScore",
]


@value
class ProposalItem:
    """One draft item: its number, type, the fact it acts on (or the id a created fact
    will get), its fields, and whether the approval applied it (None: undecided)."""

    number: str
    type: str
    fact_id: str | None
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    applied: bool | None = None


@value
class Proposal:
    """A proposal whole: who made it, its items, and how it was decided (``decided_by``:
    the approver, ``policy:…`` for an auto-approve rule, or who rejected it). ``version``
    is its stream's: an approval that names it is refused once an edit moved it on."""

    id: str
    status: str
    version: int
    title: str | None
    source: str | None
    proposer: str | None
    opened_at: datetime | None
    decided_by: str | None
    decided_at: datetime | None
    reason: str | None
    items: tuple[ProposalItem, ...]


@value
class ProposalSummary:
    """A line of ``proposal list``."""

    id: str
    status: str
    title: str | None
    source: str | None
    proposer: str
    opened_at: datetime
    item_count: int
    decided_by: str | None
    decided_at: datetime | None
    applied_count: int


@value
class RetentionScore:
    """A live fact's retention score and its parts (``--explain``); a pinned fact is
    exempt (its score is None)."""

    fact_id: str
    path: str
    kind: str
    score: float | None
    pinned: bool
    recency: float
    access: float
    centrality: float
    confidence: float
    user_weight: float
    links_in: int
    recall_count: int


@value
class PruneResult:
    """A prune pass: how many facts it scored, the threshold, and the one archive
    proposal it opened (None: no fact scored below it). It deletes nothing."""

    scored: int
    threshold: float
    candidates: int
    proposal: Proposal | None
