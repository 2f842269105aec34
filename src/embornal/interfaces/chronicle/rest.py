"""The REST models and answers of the history protocol facade's operations (decision
0084): its answers by output type (``BY_OUTPUT``), by operation where a route answers
otherwise (``HTTP``: answer model, query or body model, envelope) and the request models
of the others (``REQUESTS``), merged into :mod:`.api`'s tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import Time, _Out

__all__ = ["BY_OUTPUT", "HTTP", "REQUESTS", "AuditEntryOut", "AuditOut"]


class AuditEntryOut(_Out):
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


class AuditOut(_Out):
    entries: list[AuditEntryOut]


HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[[Any, Any], Any]]] = {}

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "list[AuditEntry]": AuditOut,
}
"""The answer model of each route whose operation returns one of these types, unless
``HTTP`` answers it otherwise; a list is sent under the route's ``items`` (decision
0184)."""

REQUESTS: dict[str, RequestModel] = {
    "audit_log": "AuditQuery",
}
"""The query or body model of each route answered by its output, where it is not the one
made from the record and named after the operation id (decision 0184)."""
