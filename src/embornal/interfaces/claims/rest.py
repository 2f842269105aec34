"""The REST models and answers of the claims ledger (docs/model.md, Claims; decisions
0081–0083): each answer model is made from its result record as the wire sends it
(decision 0192); :data:`BY_OUTPUT` and :data:`REQUESTS` are merged into :mod:`.api`'s
tables (decision 0184; what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from embornal.domain.facts.fact import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel, answer_model
from embornal.interfaces.http.schemas import _In
from embornal.service.claims.results import (
    ClaimDecision,
    ClaimEvidence,
    ClaimList,
    ClaimRecord,
    ClaimSupport,
)

__all__ = ["BY_OUTPUT", "REQUESTS", "ClaimListOut", "ClaimOut"]

_Text = Annotated[str | None, Field(None, max_length=MAX_REASON_LENGTH)]
_Label = Annotated[str | None, Field(None, max_length=500)]
_When = Annotated[
    str | None, Field(None, max_length=64, description="ISO-8601 (UTC unless zoned).")
]


answer_model(ClaimEvidence, stance="supports, challenges or context.")
answer_model(
    ClaimSupport,
    origin_groups="Distinct origins of the supporting evidence.",
    independence_verified="Always false: labels are not verified.",
)
answer_model(ClaimDecision)
ClaimOut = answer_model(
    ClaimRecord,
    "ClaimOut",
    doc="One claim: a judgment about material, its evidence and its history.",
    statement="Null once a purge erased it, or while a memory it cites is forgotten.",
    status="proposed, adopted, withdrawn or superseded.",
    withheld_by="The forgotten memories it cites: its text is withheld until restored.",
)
ClaimListOut = answer_model(ClaimList, "ClaimListOut")


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


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "ClaimRecord": ClaimOut,
    "ClaimList": ClaimListOut,
}

REQUESTS: dict[str, RequestModel] = {
    "create_claim": CreateClaimIn,
    "claim_evidence": "ClaimEvidenceIn",
    "adopt_claim": "ClaimReasonIn",
    "withdraw_claim": "ClaimReasonIn",
    "retract_evidence": "ClaimReasonIn",
    "inspect_claim": "ClaimQuery",
}
