"""What the proposal and retention tools return to the model (compact views of the wire
shapes of :class:`~embornal.service.proposals.results.Proposal` and the rest)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.mcp.results import iso

__all__ = ["BY_OUTPUT", "ProposalOut", "ProposalsOut", "RetentionOut"]


class ItemOut(BaseModel):
    number: str
    type: str
    fact_id: str | None = Field(None, description="The fact it acts on, or the id it creates.")
    fields: dict[str, Any] = Field(default_factory=dict)
    applied: bool | None = Field(None, description="Once decided: applied or declined.")


class ProposalOut(BaseModel):
    id: str
    status: str = Field(description="open, approved or rejected.")
    version: int = Field(description="Give it to approve(version=...): an edit since refuses it.")
    title: str | None = None
    source: str | None = None
    decided_by: str | None = Field(None, description="Who approved or rejected it.")
    reason: str | None = None
    items: list[ItemOut] = Field(default_factory=list)
    hint: str | None = None

    @classmethod
    def of(cls, p: Any) -> ProposalOut:
        hint = None
        if p.status == "open":
            hint = (
                f"Nothing is stored yet: ask the user to review it (`embornal proposal "
                f"show {p.id}`); an approval gives version={p.version}, the one "
                "reviewed."
            )
        return cls(
            id=p.id,
            status=p.status,
            version=p.version,
            title=p.title,
            source=p.source,
            decided_by=p.decided_by,
            reason=p.reason,
            hint=hint,
            items=[
                ItemOut(
                    number=i.number,
                    type=i.type,
                    fact_id=i.fact_id,
                    fields=dict(i.fields),
                    applied=i.applied,
                )
                for i in p.items
            ],
        )


class SummaryOut(BaseModel):
    id: str
    status: str
    title: str | None = None
    source: str | None = None
    item_count: int
    opened_at: str | None = None
    decided_by: str | None = None


class ProposalsOut(BaseModel):
    proposals: list[SummaryOut] = Field(description="Newest first.")

    @classmethod
    def of(cls, rows: Iterable[Any]) -> ProposalsOut:
        return cls(
            proposals=[
                SummaryOut(
                    id=r.id,
                    status=r.status,
                    title=r.title,
                    source=r.source,
                    item_count=r.item_count,
                    opened_at=iso(r.opened_at),
                    decided_by=r.decided_by,
                )
                for r in rows
            ]
        )


class ScoreOut(BaseModel):
    id: str
    path: str
    kind: str
    score: float | None = Field(None, description="0 to 1; absent: exempt (pinned, permanent).")
    recency: float
    access: float
    centrality: float
    c_eff: float
    user_weight: float


class RetentionOut(BaseModel):
    facts: list[ScoreOut] = Field(description="Lowest score first.")

    @classmethod
    def of(cls, scores: Iterable[Any]) -> RetentionOut:
        def r(x: float) -> float:
            return round(x, 3)

        return cls(
            facts=[
                ScoreOut(
                    id=s.fact_id,
                    path=s.path,
                    kind=s.kind,
                    score=None if s.score is None else r(s.score),
                    recency=r(s.recency),
                    access=r(s.access),
                    centrality=r(s.centrality),
                    c_eff=r(s.confidence),
                    user_weight=r(s.user_weight),
                )
                for s in scores
            ]
        )


Project = Callable[[Any, Mapping[str, Any]], BaseModel]

BY_OUTPUT: dict[str, tuple[type[BaseModel], Project]] = {
    "Proposal": (ProposalOut, lambda r, a: ProposalOut.of(r)),
    "list[ProposalSummary]": (ProposalsOut, lambda r, a: ProposalsOut.of(r)),
    "list[RetentionScore]": (RetentionOut, lambda r, a: RetentionOut.of(r)),
}
