"""The wire shapes of the claims ledger's results (spliced into
:mod:`embornal.interfaces.wire`): each record its fields in order (the generic shape of a
dataclass, nested records as objects, times ISO-8601 UTC), and the readers back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import parse_time
from embornal.service.claims.results import (
    ClaimDecision,
    ClaimEvidence,
    ClaimList,
    ClaimRecord,
    ClaimSupport,
)

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def _rt(text: Any) -> datetime | None:
    return None if text is None else parse_time(str(text))


def _t(text: Any) -> datetime:
    return parse_time(str(text))


def _evidence(d: Mapping[str, Any]) -> ClaimEvidence:
    return ClaimEvidence(
        str(d["evidence_id"]),
        str(d["stance"]),
        d["memory_id"],
        d["source"],
        d["note"],
        d["quote"],
        d["locator"],
        d["common_origin"],
        _t(d["recorded_at"]),
        str(d["recorded_by"]),
        bool(d["active"]),
        _rt(d["retracted_at"]),
    )


def _support(d: Mapping[str, Any]) -> ClaimSupport:
    return ClaimSupport(
        int(d["supporting"]),
        int(d["challenging"]),
        int(d["context"]),
        tuple(d["origin_groups"]),
        int(d["unknown_origin"]),
        bool(d["independence_verified"]),
    )


def _decision(d: Mapping[str, Any]) -> ClaimDecision:
    return ClaimDecision(
        str(d["action"]), _t(d["recorded_at"]), str(d["actor"]), d["reason"], d["detail"]
    )


def read_claim(d: Mapping[str, Any]) -> ClaimRecord:
    return ClaimRecord(
        id=str(d["id"]),
        statement=d["statement"],
        claim_type=str(d["claim_type"]),
        scope=str(d["scope"]),
        status=str(d["status"]),
        owner=str(d["owner"]),
        recorded_at=_t(d["recorded_at"]),
        updated_at=_t(d["updated_at"]),
        asserted_by=d["asserted_by"],
        statement_at=_rt(d["statement_at"]),
        valid_from=_rt(d["valid_from"]),
        valid_until=_rt(d["valid_until"]),
        about=tuple(d["about"]),
        sensitive=bool(d["sensitive"]),
        evidence=tuple(_evidence(e) for e in d["evidence"]),
        support=_support(d["support"]),
        review_required=bool(d["review_required"]),
        eligible_for_recall=bool(d["eligible_for_recall"]),
        source_issues=tuple(d["source_issues"]),
        replaced_by=d["replaced_by"],
        replaces=d["replaces"],
        redacted=bool(d["redacted"]),
        withheld_by=tuple(d.get("withheld_by", ())),
        as_of=_rt(d["as_of"]),
        history=tuple(_decision(h) for h in d["history"]),
    )


def read_claims(d: Mapping[str, Any]) -> ClaimList:
    return ClaimList(
        tuple(read_claim(c) for c in d["claims"]),
        int(d["eligible_count"]),
        bool(d["truncated"]),
        str(d["status"]),
        _rt(d["as_of"]),
        _rt(d["valid_at"]),
        d["query"],
        str(d["note"]),
    )


#: The result types with a shape of their own: their fields in order (wire._fields).
_TYPES: tuple[type, ...] = (ClaimRecord, ClaimList)

_READERS: dict[type, Callable[[Mapping[str, Any]], Any]] = {
    ClaimRecord: read_claim,
    ClaimList: read_claims,
}


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The readers of the ledger's results, and their shapes: each its fields in order
    (``core.fields``, the generic shape of a dataclass; decision 0081)."""
    return dict.fromkeys(_TYPES, core.fields), _READERS
