"""What the claims ledger's use cases return (decision 0081): frozen dataclasses, never a
dict. A claim is shown as the ledger held it at a record time (``as_of``; None: now), with
the access of now (decision 0083)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["ClaimDecision", "ClaimEvidence", "ClaimList", "ClaimRecord", "ClaimSupport"]


@dataclass(frozen=True)
class ClaimEvidence:
    """One evidence association: a memory of the store or a source label, its stance."""

    evidence_id: str
    stance: str
    memory_id: str | None
    source: str | None
    note: str | None
    quote: str | None
    locator: str | None
    common_origin: str | None
    recorded_at: datetime
    recorded_by: str
    active: bool
    retracted_at: datetime | None = None


@dataclass(frozen=True)
class ClaimSupport:
    """What the active evidence amounts to: counts by stance, and the distinct origin
    groups of the supporting evidence (reposts with a declared common origin are one).
    Labels are what callers say: ``independence_verified`` is always false."""

    supporting: int
    challenging: int
    context: int
    origin_groups: tuple[str, ...]
    unknown_origin: int
    independence_verified: bool = False


@dataclass(frozen=True)
class ClaimDecision:
    """One entry of the claim's history: the decision, when, by whom and why."""

    action: str
    recorded_at: datetime
    actor: str
    reason: str | None
    detail: str | None = None


@dataclass(frozen=True)
class ClaimRecord:
    """One claim: its statement, type, status, the two times (recorded at / valid
    from-until), its evidence and the judgment's history. ``redacted``: its text is not
    shown, erased by a purge, or withheld while the memories in ``withheld_by`` (cited by
    it) are forgotten (decision 0168)."""

    id: str
    statement: str | None
    claim_type: str
    scope: str
    status: str
    owner: str
    recorded_at: datetime
    updated_at: datetime
    asserted_by: str | None
    statement_at: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    about: tuple[str, ...]
    sensitive: bool
    evidence: tuple[ClaimEvidence, ...]
    support: ClaimSupport
    review_required: bool
    eligible_for_recall: bool
    source_issues: tuple[str, ...] = ()
    replaced_by: str | None = None
    replaces: str | None = None
    redacted: bool = False
    withheld_by: tuple[str, ...] = ()
    as_of: datetime | None = None
    history: tuple[ClaimDecision, ...] = ()


@dataclass(frozen=True)
class ClaimList:
    """The claims a ``recall_claims`` found, best first, and what it looked at."""

    claims: tuple[ClaimRecord, ...]
    eligible_count: int
    truncated: bool
    status: str
    as_of: datetime | None = None
    valid_at: datetime | None = None
    query: str | None = None
    note: str = (
        "Adoption records a judgment about specific material, not verified truth; as_of is "
        "record time (what the ledger held then), valid_at is when a claim holds (unknown "
        "bounds admit it)."
    )
