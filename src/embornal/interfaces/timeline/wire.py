"""The wire shapes of the timeline's results (spliced into :mod:`embornal.interfaces.wire`, which
gives the fact's own shape;
decision 0089): each its fields in order, times ISO-8601 UTC, the fact in its own shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import parse_time
from embornal.domain.facts.fact import Fact
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

FactIn = Callable[[Mapping[str, Any]], Fact]


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
    """The shapes (each its fields in order, ``core.fields``: the fact in the wire's own
    shape) and their readers (the fact read back by ``core.read_fact``)."""
    read_fact = core.read_fact
    out: Shapes = dict.fromkeys((TimelineEntry, Evidence, HistoryHit), core.fields)
    back: Readers = {
        TimelineEntry: lambda d: _read_entry(d, read_fact),
        Evidence: lambda d: _read_evidence(d, read_fact),
        HistoryHit: lambda d: _read_hit(d, read_fact),
    }
    return out, back
