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

from embornal.service import audit, claim_views, claims

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.claim_results import ClaimList, ClaimRecord
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

    # -- the claims ledger (decisions 0081-0083) --

    def create_claim(
        self,
        statement: str,
        claim_type: str,
        *,
        reason: str | None = None,
        scope: str | None = None,
        about: Sequence[str] | None = None,
        asserted_by: str | None = None,
        statement_at: str | None = None,
        valid_from: str | None = None,
        valid_until: str | None = None,
        security_sensitive: bool = False,
    ) -> ClaimRecord:
        """Record a proposed claim: a judgment about material, apart from it (decision 0081)."""
        return claims.create_claim(
            self._ctx,
            statement,
            claim_type,
            reason=reason,
            scope=scope,
            about=about,
            asserted_by=asserted_by,
            statement_at=statement_at,
            valid_from=valid_from,
            valid_until=valid_until,
            security_sensitive=security_sensitive,
        )

    def add_claim_evidence(
        self,
        claim_id: str,
        *,
        memory_id: str | None = None,
        source: str | None = None,
        stance: str | None = None,
        note: str | None = None,
        quote: str | None = None,
        locator: str | None = None,
        common_origin: str | None = None,
    ) -> ClaimRecord:
        """Cite a memory the subject may read, or a source label, for a claim."""
        return claims.add_claim_evidence(
            self._ctx,
            claim_id,
            memory_id=memory_id,
            source=source,
            stance=stance,
            note=note,
            quote=quote,
            locator=locator,
            common_origin=common_origin,
        )

    def adopt_claim(self, claim_id: str, reason: str) -> ClaimRecord:
        """Record the judgment: adopt (or re-review) a supported claim."""
        return claims.adopt_claim(self._ctx, claim_id, reason)

    def revise_claim(
        self,
        claim_id: str,
        reason: str,
        *,
        statement: str | None = None,
        replacement_id: str | None = None,
        valid_from: str | None = None,
        valid_until: str | None = None,
    ) -> ClaimRecord:
        """A new version of a claim, or its replacement by a supported proposed claim."""
        return claims.revise_claim(
            self._ctx,
            claim_id,
            reason,
            statement=statement,
            replacement_id=replacement_id,
            valid_from=valid_from,
            valid_until=valid_until,
        )

    def withdraw_claim(self, claim_id: str, reason: str) -> ClaimRecord:
        """End a claim (terminal); its material and history stay."""
        return claims.withdraw_claim(self._ctx, claim_id, reason)

    def retract_claim_evidence(self, evidence_id: str, reason: str) -> ClaimRecord:
        """Retire one evidence association of a claim."""
        return claims.retract_claim_evidence(self._ctx, evidence_id, reason)

    def recall_claims(
        self,
        query: str | None = None,
        *,
        status: str | None = None,
        scope: str | None = None,
        as_of: str | None = None,
        valid_at: str | None = None,
        limit: int | None = None,
        include_inactive: bool = False,
    ) -> ClaimList:
        """The claims the subject may see, adopted ones by default; ``as_of`` is record
        time, ``valid_at`` valid time."""
        return claim_views.recall_claims(
            self._ctx,
            query,
            status=status,
            scope=scope,
            as_of=as_of,
            valid_at=valid_at,
            limit=limit,
            include_inactive=include_inactive,
        )

    def claim(self, claim_id: str, *, as_of: str | None = None) -> ClaimRecord:
        """One claim with its evidence and history (at ``as_of``: as recorded then)."""
        return claim_views.claim(self._ctx, claim_id, as_of=as_of)
