"""The wire shapes of the timeline's results (spliced into :mod:`embornal.interfaces.wire`;
decision 0089): each its fields in order, times ISO-8601 UTC, the fact in its own shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from embornal.domain.clock import format_time, parse_time
from embornal.domain.facts import Fact
from embornal.service.timeline_results import Evidence, HistoryHit, TimelineEntry

__all__ = ["READERS", "SHAPES"]

Wire = dict[str, Any]


def _fact_out(fact: Fact) -> Any:
    from embornal.interfaces.wire import to_wire  # the fact's own shape (wire imports us)

    return to_wire(fact)


def _fact_in(d: Any) -> Fact:
    from embornal.interfaces.wire import from_wire

    return from_wire(Fact, d)


def _entry(e: TimelineEntry) -> Wire:
    return {"fact": _fact_out(e.fact),
            "event_at": None if e.event_at is None else format_time(e.event_at),
            "session_id": e.session_id, "session_position": e.session_position}  # fmt: skip


def _evidence(e: Evidence) -> Wire:
    return {"entry": _entry(e.entry), "seed_id": e.seed_id, "via": e.via, "offset": e.offset,
            "relation": e.relation, "direction": e.direction}  # fmt: skip


def _hit(h: HistoryHit) -> Wire:
    return {"entry": _entry(h.entry), "score": h.score,
            "evidence": [_evidence(e) for e in h.evidence]}  # fmt: skip


def _read_entry(d: Mapping[str, Any]) -> TimelineEntry:
    at, pos = d.get("event_at"), d.get("session_position")
    return TimelineEntry(_fact_in(d["fact"]), None if at is None else parse_time(str(at)),
                         d.get("session_id"), None if pos is None else int(pos))  # fmt: skip


def _read_evidence(d: Mapping[str, Any]) -> Evidence:
    offset = d.get("offset")
    return Evidence(_read_entry(d["entry"]), str(d["seed_id"]), str(d["via"]),
                    None if offset is None else int(offset), d.get("relation"),
                    d.get("direction"))  # fmt: skip


def _read_hit(d: Mapping[str, Any]) -> HistoryHit:
    return HistoryHit(_read_entry(d["entry"]), float(d["score"]),
                      tuple(_read_evidence(e) for e in d.get("evidence") or ()))  # fmt: skip


SHAPES: dict[type, Callable[[Any], Wire]] = {
    TimelineEntry: _entry,
    Evidence: _evidence,
    HistoryHit: _hit,
}
READERS: dict[type, Callable[[Mapping[str, Any]], Any]] = {
    TimelineEntry: _read_entry,
    Evidence: _read_evidence,
    HistoryHit: _read_hit,
}
