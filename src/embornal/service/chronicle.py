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

from embornal.service import audit

if TYPE_CHECKING:
    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.context import ServiceContext

__all__ = ["Chronicle"]


class Chronicle:
    """The history protocol of one memory, as its subject sees it."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        """Every decision on the memories the subject may read, with its reason, the
        newest first (a view of the event log)."""
        return audit.audit_log(self._ctx, limit=limit)
