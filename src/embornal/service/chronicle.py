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

from embornal.service import audit, narratives

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.context import ServiceContext
    from embornal.service.narrative_results import Narrative, NarrativeView

__all__ = ["Chronicle"]


class Chronicle:
    """The history protocol of one memory, as its subject sees it."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        """Every decision on the memories the subject may read, with its reason, the
        newest first (a view of the event log)."""
        return audit.audit_log(self._ctx, limit=limit)

    def narrate(
        self,
        content: str,
        *,
        reason: str,
        memory_ids: Sequence[str] | None = None,
        claim_ids: Sequence[str] | None = None,
        link_ids: Sequence[str] | None = None,
        scope: str | None = None,
        perspective: str | None = None,
        coverage: str | None = None,
        security_sensitive: bool = False,
    ) -> Narrative:
        """A new version of the account of ``scope`` (from ``perspective``), its
        dependencies validated (decision 0085)."""
        return narratives.narrate(
            self._ctx, content, reason=reason, memory_ids=memory_ids, claim_ids=claim_ids,
            link_ids=link_ids, scope=scope, perspective=perspective, coverage=coverage,
            security_sensitive=security_sensitive,
        )  # fmt: skip

    def current_narrative(
        self, *, scope: str | None = None, perspective: str | None = None
    ) -> NarrativeView:
        """The usable account of ``scope``, or its review notice (decision 0086)."""
        return narratives.current_narrative(self._ctx, scope=scope, perspective=perspective)

    def review_narrative(self, narrative_id: str, *, note: str) -> Narrative:
        """Approve the current version again once its source issues are resolved."""
        return narratives.review_narrative(self._ctx, narrative_id, note=note)

    def narrative_history(
        self, *, limit: int | None = None, scope: str | None = None
    ) -> list[Narrative]:
        """Every version, the newest first, with its text for inspection."""
        return narratives.narrative_history(self._ctx, limit=limit, scope=scope)

    def list_narratives(self, *, limit: int | None = None) -> list[Narrative]:
        """The accounts, each current version, stale text withheld."""
        return narratives.list_narratives(self._ctx, limit=limit)
