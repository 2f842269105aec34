"""The wire shapes of narrative results (spliced into :mod:`embornal.interfaces.wire`):
each its fields in order, times ISO-8601 UTC, issues as objects."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.service.narratives.results import (
    Narrative,
    NarrativeReview,
    NarrativeView,
    SourceIssue,
)

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

Wire = dict[str, Any]


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "tzinfo"):
        return format_time(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}


def _time(value: Any) -> Any:
    return None if value is None else parse_time(str(value))


def _issues(items: Any) -> tuple[SourceIssue, ...]:
    return tuple(
        SourceIssue(str(i["ref"]), str(i["issue"]), bool(i["live"]), _time(i.get("at")))
        for i in items or ()
    )


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)


def _read_narrative(d: Mapping[str, Any]) -> Narrative:
    return Narrative(
        str(d["narrative_id"]),
        str(d["scope"]),
        str(d["perspective"]),
        int(d["version"]),
        _opt(d.get("content")),
        _opt(d.get("coverage")),
        bool(d["security_sensitive"]),
        tuple(d.get("memory_ids") or ()),
        tuple(d.get("link_ids") or ()),
        tuple(d.get("claim_ids") or ()),
        parse_time(str(d["recorded_at"])),
        str(d["actor"]),
        _opt(d.get("reason")),
        _opt(d.get("replaces")),
        bool(d["current"]),
        bool(d["usable"]),
        str(d["review_status"]),
        str(d["provenance_status"]),
        _issues(d.get("source_issues")),
        _time(d.get("reviewed_at")),
        _opt(d.get("review_note")),
        bool(d.get("withheld")),
        tuple(d.get("warnings") or ()),
    )


def _read_review(d: Mapping[str, Any]) -> NarrativeReview:
    return NarrativeReview(
        str(d["narrative_id"]),
        str(d["scope"]),
        str(d["perspective"]),
        str(d["review_status"]),
        _issues(d.get("source_issues")),
        str(d["hint"]),
    )


def _read_view(d: Mapping[str, Any]) -> NarrativeView:
    n, r, i = d.get("narrative"), d.get("narrative_review"), d.get("inspected")
    return NarrativeView(
        str(d["scope"]),
        None if n is None else _read_narrative(n),
        None if r is None else _read_review(r),
        None if i is None else _read_narrative(i),
    )


_SHAPES: dict[type, Callable[[Any], Wire]] = {
    Narrative: _plain,
    NarrativeView: _plain,
    NarrativeReview: _plain,
}
_READERS: dict[type, Callable[[Mapping[str, Any]], Any]] = {
    Narrative: _read_narrative,
    NarrativeReview: _read_review,
    NarrativeView: _read_view,
}


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of this capability's results (decision 0177)."""
    return _SHAPES, _READERS
