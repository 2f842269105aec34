"""The wire shapes of the timeline's results (spliced into :mod:`embornal.interfaces.wire`, which
gives the fact's own shape;
decision 0089): each its fields in order, times ISO-8601 UTC, the fact in its own shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.domain.facts.fact import Fact
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

Wire = dict[str, Any]


FactOut = Callable[[Fact], Wire]
FactIn = Callable[[Mapping[str, Any]], Fact]


def _entry(e: TimelineEntry, fact: FactOut) -> Wire:
    return {
        "fact": fact(e.fact),
        "event_at": None if e.event_at is None else format_time(e.event_at),
        "session_id": e.session_id,
        "session_position": e.session_position,
    }


def _evidence(e: Evidence, fact: FactOut) -> Wire:
    return {
        "entry": _entry(e.entry, fact),
        "seed_id": e.seed_id,
        "via": e.via,
        "offset": e.offset,
        "relation": e.relation,
        "direction": e.direction,
    }


def _hit(h: HistoryHit, fact: FactOut) -> Wire:
    return {
        "entry": _entry(h.entry, fact),
        "score": h.score,
        "evidence": [_evidence(e, fact) for e in h.evidence],
    }


def _read_entry(d: Mapping[str, Any], fact: FactIn) -> TimelineEntry:
    at, pos = d.get("event_at"), d.get("session_position")
    return TimelineEntry(
        fact(d["fact"]),
        None if at is None else parse_time(str(at)),
        d.get("session_id"),
        None if pos is None else int(pos),
    )


def _read_evidence(d: Mapping[str, Any], fact: FactIn) -> Evidence:
    offset = d.get("offset")
    return Evidence(
        _read_entry(d["entry"], fact),
        str(d["seed_id"]),
        str(d["via"]),
        None if offset is None else int(offset),
        d.get("relation"),
        d.get("direction"),
    )


def _read_hit(d: Mapping[str, Any], fact: FactIn) -> HistoryHit:
    return HistoryHit(
        _read_entry(d["entry"], fact),
        float(d["score"]),
        tuple(_read_evidence(e, fact) for e in d.get("evidence") or ()),
    )


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and their readers, the fact in the wire's own shape (``core.fact``,
    ``core.read_fact``)."""
    fact, read_fact = core.fact, core.read_fact
    out: Shapes = {
        TimelineEntry: lambda e: _entry(e, fact),
        Evidence: lambda e: _evidence(e, fact),
        HistoryHit: lambda h: _hit(h, fact),
    }
    back: Readers = {
        TimelineEntry: lambda d: _read_entry(d, read_fact),
        Evidence: lambda d: _read_evidence(d, read_fact),
        HistoryHit: lambda d: _read_hit(d, read_fact),
    }
    return out, back
