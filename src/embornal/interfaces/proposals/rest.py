"""The REST models of proposals and retention (decisions 0055–0057), and what the API adds
to their catalogue records: :data:`BY_OUTPUT` and :data:`REQUESTS`, merged into
:mod:`embornal.interfaces.http.api` (what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, Strict

from embornal.domain.facts.fact import MAX_REASON_LENGTH
from embornal.domain.proposals.aggregate import MAX_ITEMS
from embornal.interfaces.http.derived import (
    Out,
    RequestModel,
    Time,
    answer_model,
    list_answer,
    written,
)
from embornal.interfaces.http.schemas import _In
from embornal.service.proposals.results import Proposal, PruneResult, RetentionScore

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "EditIn",
    "ProposalItemOut",
    "ProposalOut",
    "ProposalSummaryOut",
    "ProposalsOut",
    "ProposeIn",
    "PruneOut",
    "RetentionOut",
    "RetentionScoreOut",
]

Reason = Annotated[
    str | None, Field(max_length=MAX_REASON_LENGTH, description="Why; kept in the history.")
]
Items = Annotated[
    list[dict[str, Any]],
    Field(
        min_length=1,
        max_length=MAX_ITEMS,
        description="Draft items, each with a `type`: create, update, archive or supersede.",
    ),
]
Numbers = Annotated[
    list[str] | None, Field(max_length=MAX_ITEMS, description='Item numbers, e.g. ["1", "3"].')
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


class ProposeIn(_In):
    items: Items
    title: str | None = Field(None, max_length=200)
    source: str | None = Field(None, max_length=200)
    reason: Reason = None


class EditIn(_In):
    drop: Numbers = None
    replace: Annotated[dict[str, dict[str, Any]] | None, Field(max_length=MAX_ITEMS)] = Field(
        None,
        description='Items replaced in place by number, e.g. {"2": {"type": "create", "path": '
        '"/notes", "content": "..."}}: each keeps its number and, of the same type, the id '
        "of the fact it makes.",
    )
    add: Annotated[list[dict[str, Any]] | None, Field(max_length=MAX_ITEMS)] = None
    reason: Reason = None
    version: Annotated[int, Strict()] | None = Field(
        None,
        ge=1,
        description="The proposal's version the editor read; 409 `proposal_changed` when it "
        "was edited since, nothing edited (left out: the proposal as it is now).",
    )


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Proposal": ProposalOut,
    "list[ProposalSummary]": ProposalsOut,
    "list[RetentionScore]": RetentionOut,
    "PruneResult": PruneOut,
}

REQUESTS: dict[str, RequestModel] = {
    "propose": ProposeIn,
    "proposal": None,
    "approve": "ApproveIn",
    "reject": "ReasonIn",
    "edit_proposal": EditIn,
    "proposals": "ProposalsQuery",
    "retention": "RetentionQuery",
}
