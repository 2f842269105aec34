"""What the history protocol facade's MCP tools return (decision 0084): compact models
of :mod:`embornal.service.history.chronicle_results`, keyed ``memory_id`` as
memory-as-history's tools answer; ``audit_log`` answers the list of entries itself, as
memory-as-history's does (decision 0141)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field, RootModel

from embornal.interfaces.mcp.results import iso

__all__ = ["BY_OUTPUT", "AuditOut"]


class AuditEntryOut(BaseModel):
    position: int = Field(description="The event's id: what undo(event_id=...) takes.")
    at: str | None
    action: str
    memory_id: str | None = Field(
        None, description="The memory; for a claim's evidence, the memory it cites."
    )
    claim_id: str | None = None
    narrative_id: str | None = Field(None, description="The narrative version.")
    conflict_id: str | None = None
    actor: str
    reason: str | None = None


class AuditOut(RootModel[list[AuditEntryOut]]):
    """The entries, the newest first: a list, not an object."""

    @classmethod
    def of(cls, rows: Any) -> AuditOut:
        return cls(
            [
                AuditEntryOut(
                    position=e.position,
                    at=iso(e.at),
                    action=e.action,
                    memory_id=e.memory_id,
                    claim_id=e.claim_id,
                    narrative_id=e.narrative_id,
                    conflict_id=e.conflict_id,
                    actor=e.actor,
                    reason=e.reason,
                )
                for e in rows
            ]
        )


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

BY_OUTPUT: dict[str, tuple[type[BaseModel], _Project]] = {
    "list[AuditEntry]": (AuditOut, lambda r, a: AuditOut.of(r)),
}
