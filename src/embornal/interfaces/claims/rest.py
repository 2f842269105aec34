"""The REST models and answers of the claims ledger (docs/model.md, Claims; decisions
0081–0083): each answer model is made from its result record as the wire sends it
(decision 0192); :data:`BY_OUTPUT` and :data:`REQUESTS` are merged into :mod:`.api`'s
tables (decision 0184; what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.interfaces.http.derived import RequestModel, answer_model
from embornal.service.claims.results import (
    ClaimDecision,
    ClaimEvidence,
    ClaimList,
    ClaimRecord,
    ClaimSupport,
)

__all__ = ["BY_OUTPUT", "REQUESTS", "ClaimListOut", "ClaimOut"]


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


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "ClaimRecord": ClaimOut,
    "ClaimList": ClaimListOut,
}

REQUESTS: dict[str, RequestModel] = {
    "claim_evidence": "ClaimEvidenceIn",
    "adopt_claim": "ClaimReasonIn",
    "withdraw_claim": "ClaimReasonIn",
    "retract_evidence": "ClaimReasonIn",
    "inspect_claim": "ClaimQuery",
}
