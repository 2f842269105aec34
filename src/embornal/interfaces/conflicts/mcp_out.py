"""What the model gets back from the conflict tools: each conflict with its facts side by
side, compactly (the wire shape of :class:`~embornal.service.conflicts.record.ConflictRecord`,
its facts as :class:`~embornal.interfaces.mcp.results.ConfidenceOut`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.mcp.results import ConfidenceOut, iso

__all__ = ["BY_OUTPUT", "RESULTS", "ConflictOut", "ConflictsOut"]

_RESOLVE = (
    'Settle it with the user: resolve_conflict(conflict_id="{id}", reason=WHY, '
    "adopted_memory_id=FACT_ID) (none: both stand), or `embornal conflict resolve {id}`."
)


class ConflictOut(BaseModel):
    id: str
    conflict_class: str = Field(description="duplicate, contradiction, stale or declared.")
    status: str
    score: float
    findings: list[str] = Field(description="The rules that found it.")
    suggested_keep: str | None = None
    reason: str | None = Field(None, description="Why it was declared (mark_conflict).")
    facts: list[ConfidenceOut]
    resolution: str | None = Field(None, description="How it was decided, and why.")
    next_step: str | None = None

    @classmethod
    def of(cls, c: Any) -> ConflictOut:
        resolution = None
        if c.status == "resolved":
            kept = f" {c.kept_id}" if c.kept_id else ""
            resolution = f"{c.outcome}{kept} by {c.resolved_by} at {iso(c.resolved_at)}: {c.reason}"
        return cls(
            id=c.id,
            conflict_class=c.conflict_class,
            status=c.status,
            score=round(c.score, 3),
            findings=list(c.findings),
            suggested_keep=c.suggested_keep,
            reason=c.opened_reason,
            facts=[ConfidenceOut.of_fact(f) for f in c.members],
            resolution=resolution,
            next_step=_RESOLVE.format(id=c.id) if c.status == "open" else None,
        )


class ConflictsOut(BaseModel):
    conflicts: list[ConflictOut] = Field(description="Newest first.")
    hint: str | None = None

    @classmethod
    def of(cls, found: Iterable[Any], empty: str) -> ConflictsOut:
        items = [ConflictOut.of(c) for c in found]
        return cls(conflicts=items, hint=None if items else empty)


RESULTS: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], Any]]] = {
    "conflicts": (ConflictsOut, lambda r, a: ConflictsOut.of(r, "No conflict is waiting.")),
    "scan_conflicts": (
        ConflictsOut,
        lambda r, a: ConflictsOut.of(r, "No new conflict: nothing looks duplicated or stale."),
    ),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], Any]]] = {
    "ConflictRecord": (ConflictOut, lambda r, a: ConflictOut.of(r)),
}
