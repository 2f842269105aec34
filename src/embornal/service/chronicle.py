"""The history protocol's facade (seed 002 beyond capture, anchors and provenance):
``Memory.chronicle`` (decision 0084).

Seed 002's capture, consolidation, anchors, provenance and accountable forgetting are
the memory's own methods (``Memory.remember``, ``promote``, ``pin``, ``corroborate`` …;
decision 0064). What it adds on top (the audit, and the canon, frames, narratives,
claims and timelines as they come) lives here, one delegating method per operation,
each handing the shared :class:`~embornal.service.context.ServiceContext` to a use-case
module, as :class:`embornal.Memory` does. The remote client offers the same methods
(:class:`~embornal.interfaces.cli.remote_chronicle.RemoteChronicle`): both satisfy
:class:`~embornal.interfaces.api_chronicle.ChronicleAPI`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.service import audit, history_links, timeline

if TYPE_CHECKING:
    from datetime import datetime

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.context import ServiceContext
    from embornal.service.graph_results import Link, LinkGraph
    from embornal.service.protocol_results import MemoryStatus
    from embornal.service.timeline_results import HistoryHit, TimelineEntry

__all__ = ["Chronicle"]


class Chronicle:
    """The history protocol of one memory, as its subject sees it."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        """Every decision on the memories the subject may read, with its reason, the
        newest first (a view of the event log)."""
        return audit.audit_log(self._ctx, limit=limit)

    # -- history context, timelines and links (seed 002 item 11; decisions 0088-0090) --

    def set_history_context(self, fact_id: str, *, event_at: datetime | str | None = None,
                            session: str | None = None, session_position: int | None = None,
                            reason: str) -> MemoryStatus:  # fmt: skip
        """Replace a memory's history context (what is not given becomes unknown)."""
        return timeline.set_history_context(self._ctx, fact_id, event_at=event_at,
                                            session=session, session_position=session_position,
                                            reason=reason)  # fmt: skip

    def timeline(self, *, session: str | None = None, start: datetime | str | None = None,
                 end: datetime | str | None = None, limit: int | None = None,
                 order: str = "asc",
                 include_forgotten: bool = False) -> list[TimelineEntry]:  # fmt: skip
        """The memories by event time, then session position, then record order."""
        return timeline.timeline(self._ctx, session=session, start=start, end=end, limit=limit,
                                 order=order, include_forgotten=include_forgotten)  # fmt: skip

    def search_history(self, query: str, *, start: datetime | str | None = None,
                       end: datetime | str | None = None, session: str | None = None,
                       limit: int | None = None, expand: int = 0,
                       via: str = "both") -> list[HistoryHit]:  # fmt: skip
        """Keyword search within a time window and session, with bounded evidence."""
        return timeline.search_history(self._ctx, query, start=start, end=end, session=session,
                                       limit=limit, expand=expand, via=via)  # fmt: skip

    def link_memories(self, source_id: str, target_id: str, relation: str, *,
                      reason: str | None = None) -> Link:  # fmt: skip
        """Assert a typed link between two memories (seed names mapped; no trust gained)."""
        return history_links.link_memories(self._ctx, source_id, target_id, relation,
                                           reason=reason)  # fmt: skip

    def unlink_memories(self, source_id: str, target_id: str, relation: str, *,
                        reason: str | None = None) -> Link:  # fmt: skip
        """Retract a link between two memories (audited)."""
        return history_links.unlink_memories(self._ctx, source_id, target_id, relation,
                                             reason=reason)  # fmt: skip

    def memory_links(self, fact_id: str, *, relation: str | None = None,
                     direction: str = "both", limit: int | None = None) -> LinkGraph:  # fmt: skip
        """The memories one link away from a memory, with the links."""
        return history_links.memory_links(self._ctx, fact_id, relation=relation,
                                          direction=direction, limit=limit)  # fmt: skip
