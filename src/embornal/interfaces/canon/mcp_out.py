"""What the canon, frame and declared-conflict tools return (decisions 0078–0080):
compact models of :mod:`embornal.service.history.canon_results`, keyed ``memory_id`` as
memory-as-history's tools answer; conflicts as the conflict tools show them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.conflicts.mcp_out import ConflictsOut
from embornal.interfaces.mcp.results import FactOut, iso

__all__ = ["BY_OUTPUT", "RESULTS", "CanonEntryOut", "CanonListOut", "FramesOut", "RemovalOut"]


class CanonEntryOut(FactOut):
    memory_id: str
    scope: str
    reason: str | None = None
    canonized_at: str | None = None
    eligible_for_recall: bool = Field(
        True, description="false: sensitive without corroboration; takes no priority slot."
    )
    warnings: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, e: Any) -> CanonEntryOut:
        return cls(
            **FactOut.of(e.fact).model_dump(),
            memory_id=e.fact.id,
            scope=e.scope,
            reason=e.reason,
            canonized_at=iso(e.since),
            eligible_for_recall=e.eligible_for_recall,
            warnings=list(e.warnings),
        )


class CanonListOut(BaseModel):
    entries: list[CanonEntryOut] = Field(description="Oldest entry first.")


class RemovalOut(BaseModel):
    scopes: list[str]
    memory_ids: list[str]
    decommissioned: int = Field(description="How many memberships ended.")
    reason: str

    @classmethod
    def of(cls, r: Any) -> RemovalOut:
        return cls(
            scopes=list(r.scopes),
            memory_ids=list(r.memory_ids),
            decommissioned=r.removed,
            reason=r.reason,
        )


class ScopeOut(BaseModel):
    scope: str
    entries: int


class ScopesOut(BaseModel):
    scopes: list[ScopeOut]


class FrameOut(BaseModel):
    frame: str
    memories: int


class FramesOut(BaseModel):
    frames: list[FrameOut] = Field(description="Filters, not access boundaries.")


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

RESULTS: dict[str, tuple[type[BaseModel], _Project]] = {
    "list_conflicts": (ConflictsOut, lambda r, a: ConflictsOut.of(r, "No conflict.")),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], _Project]] = {
    "CanonRemoval": (RemovalOut, lambda r, a: RemovalOut.of(r)),
    "CanonEntry": (CanonEntryOut, lambda r, a: CanonEntryOut.of(r)),
    "list[CanonEntry]": (
        CanonListOut,
        lambda r, a: CanonListOut(entries=[CanonEntryOut.of(e) for e in r]),
    ),
    "list[ScopeInUse]": (
        ScopesOut,
        lambda r, a: ScopesOut(scopes=[ScopeOut(scope=s.scope, entries=s.entries) for s in r]),
    ),
    "list[FrameInUse]": (
        FramesOut,
        lambda r, a: FramesOut(frames=[FrameOut(frame=f.frame, memories=f.memories) for f in r]),
    ),
}
