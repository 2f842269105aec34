"""What the claims ledger's MCP tools return (decision 0081): compact
models of :mod:`embornal.service.claims.results`, keyed ``claim_id`` as
memory-as-history's tools answer; spliced into the tools' table with one line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field

from embornal.domain.claims.ledger import choose_stance
from embornal.domain.clock import format_time
from embornal.domain.history.provenance import clean_label
from embornal.interfaces.mcp.results import iso
from embornal.interfaces.mcp.schemas import KEPT_NULL

__all__ = ["BY_OUTPUT", "RESULTS", "ClaimEvidenceOut", "ClaimOut", "ClaimsOut", "EvidenceOut"]


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
    by, reason), again as ``events`` (each: claim_id, action, recorded_at, by, reason), the
    name memory-as-history's clients read; its ``recorded_at`` to the microsecond, so that
    as an ``as_of`` it includes the decision. ``replacement_id`` is ``replaced_by`` again
    (memory-as-history's name), answered null while there is none. ``redacted``: the text
    is not shown (``content`` null), withheld while the memories in ``withheld_by`` are
    forgotten (decision 0168; ``warning`` names the restore) or erased by a purge."""

    keep_null: ClassVar[tuple[str, ...]] = ("replacement_id", "content")

    claim_id: str
    id: str
    statement: str | None = None
    content: str | None = Field(None, json_schema_extra=KEPT_NULL)
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
    replacement_id: str | None = Field(None, json_schema_extra=KEPT_NULL)
    replaces: str | None = None
    redacted: bool = False
    withheld_by: list[str] = Field(default_factory=list)
    warning: str | None = None
    as_of: str | None = None
    history: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(
        default_factory=list, description="The history again (memory-as-history's name)."
    )

    @classmethod
    def of(cls, c: Any) -> Self:
        evidence = [_evidence(e) for e in c.evidence]
        history = [
            _drop_none(
                {"action": d.action, "at": iso(d.recorded_at), "by": d.actor, "reason": d.reason}
            )
            for d in c.history
        ]
        events = [
            _drop_none(
                {
                    "claim_id": c.id,
                    "action": d.action,
                    "recorded_at": format_time(d.recorded_at),
                    "by": d.actor,
                    "reason": d.reason,
                }
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
            replacement_id=c.replaced_by,
            replaces=c.replaces,
            redacted=c.redacted,
            withheld_by=list(c.withheld_by),
            warning=_withheld(c.withheld_by),
            as_of=iso(c.as_of),
            history=history,
            events=events,
        )


def _withheld(memories: tuple[str, ...]) -> str | None:
    if not memories:
        return None
    return (
        "Its text is withheld while a memory it cites is forgotten; "
        f"restore(memory_id={memories[0]!r}, reason) shows it again."
    )


def _evidence(e: Any) -> dict[str, Any]:
    """One evidence association, under embornal's names and memory-as-history's (``id``,
    ``reason``)."""
    return _drop_none(
        {
            "evidence_id": e.evidence_id,
            "id": e.evidence_id,
            "stance": e.stance,
            "memory_id": e.memory_id,
            "source": e.source,
            "note": e.note,
            "reason": e.note,
            "quote": e.quote,
            "locator": e.locator,
            "common_origin": e.common_origin,
            "recorded_at": iso(e.recorded_at),
            "active": e.active,
            "retracted_at": iso(e.retracted_at),
        }
    )


class ClaimEvidenceOut(ClaimOut):
    """What add_evidence (with claim_id) and retract_evidence return: the claim, and at the
    top the evidence association the call recorded, found standing or retracted, as
    memory-as-history's evidence record: ``id`` is the association's (what
    retract_evidence takes), the claim's is ``claim_id``; ``recorded_at`` stays the
    claim's (the association's is in ``evidence``)."""

    evidence_id: str | None = None
    stance: str | None = None
    memory_id: str | None = None
    source: str | None = None
    note: str | None = None
    reason: str | None = None
    quote: str | None = None
    locator: str | None = None
    common_origin: str | None = None
    active: bool | None = None
    retracted_at: str | None = None

    @classmethod
    def of_call(cls, c: Any, found: Any) -> ClaimEvidenceOut:
        out = cls.of(c)
        if found is None:
            return out
        top = {k: v for k, v in _evidence(found).items() if k != "recorded_at"}
        return out.model_copy(update=top)


def _norm(value: object) -> str:
    return str(value or "").strip().upper()


def _added(c: Any, a: Mapping[str, Any]) -> Any:
    """The association ``add_evidence(**a)`` recorded or found standing: the active one of
    that stance citing that memory (an id or its unique prefix) or source label (a repeat
    adds nothing, so there is one)."""
    stance, memory, source = choose_stance(a.get("stance")), _norm(a.get("memory_id")), None
    if a.get("source") is not None:
        source = clean_label(str(a["source"]))
    for e in reversed(c.evidence):
        if not e.active or e.stance != stance:
            continue
        if memory and e.memory_id is not None and e.memory_id.startswith(memory):
            return e
        if source is not None and e.memory_id is None and clean_label(e.source) == source:
            return e
    return None


def _retracted(c: Any, a: Mapping[str, Any]) -> Any:
    wanted = _norm(a.get("evidence_id"))
    return next((e for e in c.evidence if e.evidence_id == wanted), None)


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

RESULTS: dict[str, tuple[type[BaseModel], Project]] = {
    "claim_evidence": (ClaimEvidenceOut, lambda r, a: ClaimEvidenceOut.of_call(r, _added(r, a))),
    "retract_evidence": (
        ClaimEvidenceOut,
        lambda r, a: ClaimEvidenceOut.of_call(r, _retracted(r, a)),
    ),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], Project]] = {
    "ClaimRecord": (ClaimOut, lambda r, a: ClaimOut.of(r)),
    "ClaimList": (ClaimsOut, lambda r, a: ClaimsOut.of(r)),
}
