"""What the claims ledger's MCP tools return (decision 0081): compact
models of :mod:`embornal.service.claim_results`, keyed ``claim_id`` as
memory-as-history's tools answer; spliced into the tools' table with one line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from embornal.interfaces.mcp.results import iso

__all__ = ["CLAIM_RESULTS", "ClaimOut", "ClaimsOut", "EvidenceOut"]


def _lean(schema: dict[str, Any]) -> None:
    """A schema without what the model does not need (titles, null defaults; an optional
    text as ``["string", "null"]``): the same shapes at about half the tokens, seven tools
    answering with a claim."""
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
        if "default" in prop and prop["default"] in (None, [], False, True, 0):
            prop.pop("default")
        options = prop.get("anyOf")
        if options and len(options) == 2 and {"type": "null"} in options:
            (other,) = [o for o in options if o != {"type": "null"}]
            if set(other) == {"type"}:
                del prop["anyOf"]
                prop["type"] = [other["type"], "null"]


class _Lean(BaseModel):
    model_config = ConfigDict(json_schema_extra=_lean)


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


class ClaimOut(_Lean):
    """A claim: the judgment, its evidence (each: evidence_id, stance, memory_id or source,
    note, quote, active), its support by origin groups, and its history (each: action, at,
    by, reason)."""

    claim_id: str
    id: str
    statement: str | None = None
    content: str | None = None
    claim_type: str
    kind: str
    status: str = Field(description="proposed, adopted, withdrawn or superseded.")
    scope: str
    recorded_at: str | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    asserted_by: str | None = None
    sensitive: bool = False
    security_sensitive: bool = False
    evidence: list[dict[str, Any]] = Field(default_factory=list)
    supporting: int = 0
    challenging: int = 0
    origin_groups: list[str] = Field(default_factory=list)
    review_required: bool = False
    eligible_for_recall: bool = False
    source_issues: list[str] = Field(default_factory=list)
    replaced_by: str | None = None
    replaces: str | None = None
    as_of: str | None = None
    history: list[dict[str, Any]] = Field(default_factory=list)

    @classmethod
    def of(cls, c: Any) -> ClaimOut:
        evidence = [
            _drop_none(
                {
                    "evidence_id": e.evidence_id,
                    "stance": e.stance,
                    "memory_id": e.memory_id,
                    "source": e.source,
                    "note": e.note,
                    "quote": e.quote,
                    "common_origin": e.common_origin,
                    "recorded_at": iso(e.recorded_at),
                    "active": e.active,
                }
            )
            for e in c.evidence
        ]
        history = [
            _drop_none(
                {"action": d.action, "at": iso(d.recorded_at), "by": d.actor, "reason": d.reason}
            )
            for d in c.history
        ]
        return cls(
            claim_id=c.id,
            id=c.id,
            statement=c.statement,
            content=c.statement,
            claim_type=c.claim_type,
            kind=c.claim_type,
            status=c.status,
            scope=c.scope,
            recorded_at=iso(c.recorded_at),
            valid_from=iso(c.valid_from),
            valid_until=iso(c.valid_until),
            asserted_by=c.asserted_by,
            sensitive=c.sensitive,
            security_sensitive=c.sensitive,
            evidence=evidence,
            supporting=c.support.supporting,
            challenging=c.support.challenging,
            origin_groups=list(c.support.origin_groups),
            review_required=c.review_required,
            eligible_for_recall=c.eligible_for_recall,
            source_issues=list(c.source_issues),
            replaced_by=c.replaced_by,
            replaces=c.replaces,
            as_of=iso(c.as_of),
            history=history,
        )


class ClaimsOut(_Lean):
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
            hint = (
                'None found: try status="all", fewer words, or no as_of; create_claim records one.'
            )
        return cls(
            claims=[ClaimOut.of(c) for c in r.claims],
            eligible_count=r.eligible_count,
            truncated=r.truncated,
            status=r.status,
            as_of=iso(r.as_of),
            valid_at=iso(r.valid_at),
            note=r.note,
            hint=hint,
        )


class EvidenceOut(BaseModel):
    """What add_evidence returns: the fact with its confidence (fact evidence) or the
    claim (with claim_id)."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_lean)

    id: str | None = Field(None, description="The fact (fact evidence), or the claim.")
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
