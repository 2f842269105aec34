"""The REST models and answers of the claims ledger (docs/model.md, Claims; decisions 0081–0083):
each answer model re-serializes the wire shape of :mod:`embornal.interfaces.claims.wire`
field for field; :data:`BY_OUTPUT` and :data:`REQUESTS` are merged into :mod:`.api`'s
tables (decision 0184; what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from embornal.domain.facts.fact import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import Time, _In, _Out

__all__ = ["BY_OUTPUT", "REQUESTS", "ClaimListOut", "ClaimOut"]

_Text = Annotated[str | None, Field(None, max_length=MAX_REASON_LENGTH)]
_Label = Annotated[str | None, Field(None, max_length=500)]
_When = Annotated[
    str | None, Field(None, max_length=64, description="ISO-8601 (UTC unless zoned).")
]
_Reason = Annotated[str, Field(min_length=1, max_length=MAX_REASON_LENGTH)]


class ClaimEvidenceOut(_Out):
    evidence_id: str
    stance: str = Field(description="supports, challenges or context.")
    memory_id: str | None
    source: str | None
    note: str | None
    quote: str | None
    locator: str | None
    common_origin: str | None
    recorded_at: Time
    recorded_by: str
    active: bool
    retracted_at: Time | None


class ClaimSupportOut(_Out):
    supporting: int
    challenging: int
    context: int
    origin_groups: list[str] = Field(description="Distinct origins of the supporting evidence.")
    unknown_origin: int
    independence_verified: bool = Field(description="Always false: labels are not verified.")


class ClaimDecisionOut(_Out):
    action: str
    recorded_at: Time
    actor: str
    reason: str | None
    detail: str | None


class ClaimOut(_Out):
    """One claim: a judgment about material, its evidence and its history."""

    id: str
    statement: str | None = Field(
        description="Null once a purge erased it, or while a memory it cites is forgotten."
    )
    claim_type: str
    scope: str
    status: str = Field(description="proposed, adopted, withdrawn or superseded.")
    owner: str
    recorded_at: Time
    updated_at: Time
    asserted_by: str | None
    statement_at: Time | None
    valid_from: Time | None
    valid_until: Time | None
    about: list[str]
    sensitive: bool
    evidence: list[ClaimEvidenceOut]
    support: ClaimSupportOut
    review_required: bool
    eligible_for_recall: bool
    source_issues: list[str]
    replaced_by: str | None
    replaces: str | None
    redacted: bool
    withheld_by: list[str] = Field(
        description="The forgotten memories it cites: its text is withheld until restored."
    )
    as_of: Time | None
    history: list[ClaimDecisionOut]


class ClaimListOut(_Out):
    claims: list[ClaimOut]
    eligible_count: int
    truncated: bool
    status: str
    as_of: Time | None
    valid_at: Time | None
    query: str | None
    note: str


class CreateClaimIn(_In):
    statement: str = Field(min_length=1, max_length=MAX_CONTENT_BYTES)
    claim_type: str = Field(min_length=1, max_length=32)
    reason: _Text = None
    scope: str | None = Field(None, max_length=200)
    about: list[str] | None = None
    asserted_by: _Label = None
    statement_at: _When = None
    valid_from: _When = None
    valid_until: _When = None
    security_sensitive: bool = Field(False, strict=True)


class ClaimEvidenceIn(_In):
    memory_id: str | None = Field(None, max_length=64)
    source: _Label = None
    stance: str | None = Field(None, max_length=32)
    note: _Text = None
    quote: _Text = None
    locator: _Label = None
    common_origin: _Label = None


class ReviseClaimIn(_In):
    reason: _Reason
    statement: str | None = Field(None, min_length=1, max_length=MAX_CONTENT_BYTES)
    replacement_id: str | None = Field(None, max_length=64)
    valid_from: _When = None
    valid_until: _When = None


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "ClaimRecord": ClaimOut,
    "ClaimList": ClaimListOut,
}

REQUESTS: dict[str, RequestModel] = {
    "create_claim": CreateClaimIn,
    "claim_evidence": ClaimEvidenceIn,
    "adopt_claim": "ClaimReasonIn",
    "revise_claim": ReviseClaimIn,
    "withdraw_claim": "ClaimReasonIn",
    "retract_evidence": "ClaimReasonIn",
    "inspect_claim": "ClaimQuery",
}
