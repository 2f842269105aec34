"""``audit_log``: every decision on the memories a subject may read, with its reason — a
view of the event log, not a second table (seed 002 item 13; decision 0084)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.domain.audit import action_of
from embornal.service.chronicle_results import AuditEntry
from embornal.service.context import check_limit

if TYPE_CHECKING:
    from embornal.service.context import ServiceContext

__all__ = ["audit_log"]


def audit_log(ctx: ServiceContext, *, limit: int | None = None) -> list[AuditEntry]:
    """The newest ``limit`` decisions (default: the memory's default limit) on the facts
    the subject may read, forgotten ones included, the newest first. A recall is not a
    decision; the events of facts the subject may not read are not there at all."""
    n = check_limit(limit, ctx.default_limit)
    return [
        AuditEntry(
            position=e.position,
            at=e.recorded_at,
            action=action_of(e.type, e.payload),
            memory_id=e.stream_id,
            actor=e.actor,
            actor_kind=e.actor_kind,
            reason=e.reason,
            event_type=e.type,
        )
        for e in ctx.store.audit_events(ctx.scope(), limit=n)
    ]
