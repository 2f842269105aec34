"""The REST models and answers of the history protocol facade's operations (decision
0084) and its tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from embornal.interfaces.http.derived import Out, RequestModel, Time, list_answer, written
from embornal.service.history.chronicle_results import AuditEntry

__all__ = ["BY_OUTPUT", "REQUESTS", "AuditEntryOut", "AuditOut"]


@written(AuditEntry)
class AuditEntryOut(Out):
    position: int = Field(description="The event's id (what undo takes).")
    at: Time
    action: str = Field(
        description="promote, pin, unpin, unpin_noop, corroborate, review, "
        "forget, restore, flag_sensitive, store …; create_claim, "
        "add_evidence, adopt_claim, revise_claim, withdraw_claim, "
        "narrate, review_narrative, mark_conflict, resolve_conflict"
    )
    memory_id: str | None = Field(
        description="The memory; for a claim's evidence, the memory it cites."
    )
    claim_id: str | None
    narrative_id: str | None = Field(description="The narrative version.")
    conflict_id: str | None
    actor: str
    actor_kind: str
    reason: str | None
    event_type: str = Field(description="The event log's name of the event.")


AuditOut = list_answer("AuditOut", "entries", AuditEntryOut)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "list[AuditEntry]": AuditOut,
}

REQUESTS: dict[str, RequestModel] = {
    "audit_log": "AuditQuery",
}
