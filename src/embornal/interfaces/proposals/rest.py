"""The REST models of proposals and retention (decisions 0055–0057), and what the API adds
to their catalogue records: :data:`BY_OUTPUT` and :data:`REQUESTS`, merged into
:mod:`embornal.interfaces.http.api` (what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from embornal.interfaces.http.derived import (
    Out,
    RequestModel,
    Time,
    answer_model,
    list_answer,
    written,
)
from embornal.service.proposals.results import Proposal, PruneResult, RetentionScore

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "ProposalItemOut",
    "ProposalOut",
    "ProposalSummaryOut",
    "ProposalsOut",
    "PruneOut",
    "RetentionOut",
    "RetentionScoreOut",
]


class ProposalItemOut(Out):
    number: str
    type: str = Field(description="create, update, archive or supersede.")
    fact_id: str | None = Field(description="The fact it acts on, or the id it will create.")
    fields: dict[str, Any]
    applied: bool | None = Field(description="Once decided: applied (true) or declined.")


@written(Proposal)
class ProposalOut(Out):
    """A proposal whole (``decided_by``: a subject, or ``policy:…`` for an auto-approve)."""

    id: str
    status: Literal["open", "approved", "rejected"]
    version: int = Field(
        description="Its stream's version: send it as `version` to approve what you read."
    )
    title: str | None
    source: str | None
    proposer: str | None
    opened_at: Time | None
    decided_by: str | None
    decided_at: Time | None
    reason: str | None
    items: list[ProposalItemOut]


class ProposalSummaryOut(Out):
    id: str
    status: Literal["open", "approved", "rejected"]
    title: str | None
    source: str | None
    proposer: str
    opened_at: Time
    item_count: int
    decided_by: str | None
    decided_at: Time | None
    applied_count: int


ProposalsOut = list_answer("ProposalsOut", "proposals", ProposalSummaryOut, note="Newest first.")


RetentionScoreOut = answer_model(
    RetentionScore,
    score="0..1; null: exempt (pinned or permanent).",
    confidence="c_eff: the confidence decayed to now.",
)


RetentionOut = list_answer("RetentionOut", "facts", RetentionScoreOut, note="Lowest score first.")


PruneOut = answer_model(
    PruneResult,
    "PruneOut",
    proposal="The archive proposal (null: none).",
)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Proposal": ProposalOut,
    "list[ProposalSummary]": ProposalsOut,
    "list[RetentionScore]": RetentionOut,
    "PruneResult": PruneOut,
}

REQUESTS: dict[str, RequestModel] = {
    "proposal": None,
    "approve": "ApproveIn",
    "reject": "ReasonIn",
    "edit_proposal": "EditIn",
    "proposals": "ProposalsQuery",
    "retention": "RetentionQuery",
}
