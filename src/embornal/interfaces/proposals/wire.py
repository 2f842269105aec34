"""The wire shapes of the proposal and retention results (spliced into
:mod:`embornal.interfaces.wire`): each its fields in order, times ISO-8601 UTC."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from embornal.domain.clock import format_time, parse_time
from embornal.hints import TYPE_CHECKING, Any
from embornal.service.proposals.results import (
    Proposal,
    ProposalItem,
    ProposalSummary,
    PruneResult,
    RetentionScore,
)

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

Wire = dict[str, Any]


def _t(moment: datetime | None) -> str | None:
    return None if moment is None else format_time(moment)


def _rt(text: Any) -> datetime | None:
    return None if text is None else parse_time(str(text))


def _plain(value: Any) -> Any:
    """An item's fields as JSON data (they came as JSON; a round trip keeps them so)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def _item(i: ProposalItem) -> Wire:
    return {
        "number": i.number,
        "type": i.type,
        "fact_id": i.fact_id,
        "fields": _plain(dict(i.fields)),
        "applied": i.applied,
    }


def _proposal(p: Proposal) -> Wire:
    return {
        "id": p.id,
        "status": p.status,
        "version": p.version,
        "title": p.title,
        "source": p.source,
        "proposer": p.proposer,
        "opened_at": _t(p.opened_at),
        "decided_by": p.decided_by,
        "decided_at": _t(p.decided_at),
        "reason": p.reason,
        "items": [_item(i) for i in p.items],
    }


def _read_item(d: Mapping[str, Any]) -> ProposalItem:
    return ProposalItem(
        str(d["number"]), str(d["type"]), d["fact_id"], dict(d["fields"]), d["applied"]
    )


def _read_proposal(d: Mapping[str, Any]) -> Proposal:
    return Proposal(
        str(d["id"]),
        str(d["status"]),
        int(d.get("version") or 0),
        d["title"],
        d["source"],
        d["proposer"],
        _rt(d["opened_at"]),
        d["decided_by"],
        _rt(d["decided_at"]),
        d["reason"],
        tuple(_read_item(i) for i in d["items"]),
    )


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of this capability's results (decision 0177): a proposal's
    items keep their fields as JSON data; the rest are their fields in order."""
    out, back = core.by_fields(ProposalSummary, RetentionScore, PruneResult)
    out[Proposal] = _proposal
    back[Proposal] = _read_proposal
    return out, back
