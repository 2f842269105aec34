"""The REST models of the conflict queue: list, show, resolve and scan (decision 0059)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from embornal.interfaces.http.derived import Out, RequestModel, Time, list_answer, written
from embornal.interfaces.http.schemas import FactOut
from embornal.service.conflicts.record import ConflictRecord

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "ConflictOut",
    "ConflictsOut",
    "ResolutionOut",
]

ClassName = Literal["duplicate", "contradiction", "stale", "declared"]


class ResolutionOut(Out):
    """Who decided the conflict, how and why."""

    outcome: Literal["keep", "both"]
    kept_id: str | None = Field(description="The fact kept (and confirmed), for keep.")
    archived: list[str] = Field(description="The facts the decision forgot.")
    reason: str | None
    by: str | None
    at: Time | None


@written(ConflictRecord)
class ConflictOut(Out):
    """A conflict with its facts side by side (each as a fact), and its resolution."""

    id: str
    conflict_class: ClassName
    status: Literal["open", "resolved"]
    score: float = Field(description="How sure the rules are, 0..1.")
    findings: list[str] = Field(description="The rules that found it (never user text).")
    detected_by: str = Field(description="store, contradict, scan or mark (declared).")
    suggested_keep: str | None = Field(description="The fact the rules would keep, if any.")
    opened_at: Time | None
    opened_by: str
    opened_reason: str | None = Field(description="Why it was opened (a declared one's).")
    members: list[FactOut]
    resolution: ResolutionOut | None


ConflictsOut = list_answer("ConflictsOut", "conflicts", ConflictOut, doc="Newest first.")


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "ConflictRecord": ConflictOut,
    "list[ConflictRecord]": ConflictsOut,
}

REQUESTS: dict[str, RequestModel] = {
    "conflicts": "ConflictsQuery",
    "conflict": None,
    "resolve_conflict": "ResolveIn",
    "scan_conflicts": "ScanIn",
}
