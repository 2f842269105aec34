"""What the history protocol's facade (:class:`~embornal.service.chronicle.Chronicle`)
returns beyond the memory's own results (seed 002; decision 0084)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["AuditEntry"]


@dataclass(frozen=True)
class AuditEntry:
    """One decision on a memory, as the log holds it (``audit_log``): the event's id
    (``position``, what ``undo`` takes), when, what was done (``action``: promote, pin,
    unpin, unpin_noop, corroborate, review, forget, restore, flag_sensitive, store …),
    to which memory, by whom and why; ``event_type`` is the log's own name."""

    position: int
    at: datetime
    action: str
    memory_id: str
    actor: str
    actor_kind: str
    reason: str | None
    event_type: str
