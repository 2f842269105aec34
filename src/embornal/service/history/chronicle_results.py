"""What the history protocol's facade (:class:`~embornal.service.history.chronicle.Chronicle`)
returns beyond the memory's own results (decision 0084)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["AuditEntry"]


@dataclass(frozen=True)
class AuditEntry:
    """One decision, as the log holds it (``audit_log``): the event's id (``position``,
    what ``undo`` takes), when, what was done (``action``: promote, pin, unpin,
    unpin_noop, corroborate, review, forget, restore, flag_sensitive, store …, and
    create_claim, add_evidence, adopt_claim, revise_claim, withdraw_claim, narrate,
    review_narrative, mark_conflict, resolve_conflict …), on what (``memory_id``: the
    memory, or the memory a claim's evidence cites; ``claim_id``; ``narrative_id``: the
    version; ``conflict_id``), by whom and why;
    ``event_type`` is the log's own name (decisions 0084, 0099)."""

    position: int
    at: datetime
    action: str
    memory_id: str | None
    actor: str
    actor_kind: str
    reason: str | None
    event_type: str
    claim_id: str | None = None
    narrative_id: str | None = None
    conflict_id: str | None = None
