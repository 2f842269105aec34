"""What the claims ledger's MCP tools return (seed 002 item 10; decision 0081): compact
models of :mod:`embornal.service.claim_results`, keyed ``claim_id`` as seed 002's tools
answer; spliced into the tools' table with one line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from embornal.interfaces.mcp.results import iso

__all__ = ["CLAIM_RESULTS", "ClaimOut", "ClaimsOut", "EvidenceOut"]


class EvidenceItemOut(BaseModel):
    evidence_id: str
    stance: str
    memory_id: str | None = None
    source: str | None = None
    note: str | None = None
    quote: str | None = None
    common_origin: str | None = None
    recorded_at: str | None = None
    active: bool = True


class DecisionOut(BaseModel):
    action: str
    at: str | None = None
    by: str
    reason: str | None = None


class ClaimOut(BaseModel):
    """A claim: the judgment, its evidence, its support by origin groups, its history."""

    claim_id: str
    statement: str | None = Field(None, description="Null once a purge erased it.")
    claim_type: str
    status: str = Field(description="proposed, adopted, withdrawn or superseded.")
    scope: str
    recorded_at: str | None = Field(None, description="Record time of its creation.")
    valid_from: str | None = Field(None, description="Valid time; null: unknown.")
    valid_until: str | None = None
    asserted_by: str | None = None
    sensitive: bool = False
    evidence: list[EvidenceItemOut] = Field(default_factory=list)
    supporting: int = 0
    challenging: int = 0
    origin_groups: list[str] = Field(default_factory=list, description="Reposts count once.")
    review_required: bool = Field(False, description="Evidence changed since adoption.")
    eligible_for_recall: bool = False
    source_issues: list[str] = Field(default_factory=list)
    replaced_by: str | None = None
    replaces: str | None = None
    as_of: str | None = None
    history: list[DecisionOut] = Field(default_factory=list)

    @classmethod
    def of(cls, c: Any) -> ClaimOut:
        return cls(
            claim_id=c.id, statement=c.statement, claim_type=c.claim_type, status=c.status,
            scope=c.scope, recorded_at=iso(c.recorded_at), valid_from=iso(c.valid_from),
            valid_until=iso(c.valid_until), asserted_by=c.asserted_by, sensitive=c.sensitive,
            evidence=[EvidenceItemOut(
                evidence_id=e.evidence_id, stance=e.stance, memory_id=e.memory_id,
                source=e.source, note=e.note, quote=e.quote, common_origin=e.common_origin,
                recorded_at=iso(e.recorded_at), active=e.active) for e in c.evidence],
            supporting=c.support.supporting, challenging=c.support.challenging,
            origin_groups=list(c.support.origin_groups), review_required=c.review_required,
            eligible_for_recall=c.eligible_for_recall, source_issues=list(c.source_issues),
            replaced_by=c.replaced_by, replaces=c.replaces, as_of=iso(c.as_of),
            history=[DecisionOut(action=d.action, at=iso(d.recorded_at), by=d.actor,
                                 reason=d.reason) for d in c.history],
        )  # fmt: skip


class ClaimsOut(BaseModel):
    claims: list[ClaimOut]
    eligible_count: int
    truncated: bool
    status: str
    as_of: str | None = Field(None, description="Record time looked back to.")
    valid_at: str | None = Field(None, description="Valid time filtered on.")
    note: str
    hint: str | None = None

    @classmethod
    def of(cls, r: Any) -> ClaimsOut:
        hint = None
        if not r.claims:
            hint = ('None found: try status="all", fewer words, or no as_of; '
                    "create_claim records one.")  # fmt: skip
        return cls(claims=[ClaimOut.of(c) for c in r.claims], eligible_count=r.eligible_count,
                   truncated=r.truncated, status=r.status, as_of=iso(r.as_of),
                   valid_at=iso(r.valid_at), note=r.note, hint=hint)  # fmt: skip


class EvidenceOut(BaseModel):
    """What add_evidence returns: the fact with its confidence (fact evidence) or the
    claim (with claim_id)."""

    model_config = ConfigDict(extra="allow")

    id: str | None = Field(None, description="The fact (fact evidence).")
    confidence: float | None = None
    claim_id: str | None = Field(None, description="The claim (claim evidence).")
    status: str | None = None


Project = Callable[[Any, Mapping[str, Any]], BaseModel]

CLAIM_RESULTS: dict[str, tuple[type[BaseModel], Project]] = {
    "create_claim": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "claim_evidence": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "adopt_claim": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "revise_claim": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "withdraw_claim": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "retract_evidence": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "recall_claims": (ClaimsOut, lambda r, a: ClaimsOut.of(r)),
    "inspect_claim": (ClaimOut, lambda r, a: ClaimOut.of(r)),
}
