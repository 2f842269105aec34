"""The history protocol's facade beyond capture, anchors and provenance:
``Memory.chronicle`` (docs/model.md, The chronicle and the recall cascade; decision 0084).

The protocol's capture, consolidation, anchors, provenance and accountable forgetting are
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

from embornal.service import audit, canon, declared_conflicts

if TYPE_CHECKING:
    from embornal.service.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse
    from embornal.service.cascade_results import Cascade
    from embornal.service.results import RecallHit
from embornal.service import history_links, timeline

if TYPE_CHECKING:
    from datetime import datetime
from embornal.service import narratives

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.conflict_record import ConflictRecord
from embornal.service import cascade, claim_views, claims, fact_reads

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.claim_results import ClaimList, ClaimRecord
    from embornal.service.context import ServiceContext
    from embornal.service.fact_read_results import FactAccess, FactProtocol
    from embornal.service.graph_results import Link, LinkGraph
    from embornal.service.narrative_results import Narrative, NarrativeView
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

    # -- the recall cascade and the searches (decisions 0095-0097) ----------------------

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        frame: str | None = None,
        mode: str = "auto",
        under: str | None = None,
        scope: str | None = None,
        reinforce: bool = True,
        now: datetime | str | None = None,
        rerank: bool = False,
        all: bool = False,
    ) -> Cascade:
        """Anchors first, then the canon, then the ordinary memories, ``limit`` their one
        budget (the anchors always whole); with the stale interpretations, the usable
        narrative or its review notice, and the open conflicts. The ranked hits count as
        a recall unless ``reinforce`` is false; ``now``: when the question is asked;
        ``rerank``: the best candidates reordered by the cross-encoder (decision 0115);
        ``all``: the guide under ``/memory`` too (decision 0154)."""
        return cascade.cascade(
            self._ctx,
            query,
            limit=limit,
            frame=frame,
            mode=mode,
            under=under,
            scope=scope,
            reinforce=reinforce,
            now=now,
            rerank=rerank,
            guide=all,
        )

    def search(
        self,
        query: str,
        *,
        limit: int | None = None,
        frame: str | None = None,
        mode: str = "auto",
        under: str | None = None,
        scope: str | None = None,
        all: bool = False,
    ) -> Cascade:
        """The cascade for ``query``, each candidate checked again at answer time; it
        reinforces nothing. ``all``: the guide under ``/memory`` too (decision 0154)."""
        return cascade.search(
            self._ctx,
            query,
            limit=limit,
            frame=frame,
            mode=mode,
            under=under,
            scope=scope,
            guide=all,
        )

    def search_archive(
        self,
        query: str,
        *,
        limit: int | None = None,
        frame: str | None = None,
        mode: str = "auto",
        under: str | None = None,
    ) -> list[RecallHit]:
        """The best unpinned memories for ``query`` (of ``frame``), a budget of their own."""
        return cascade.search_archive(
            self._ctx, query, limit=limit, frame=frame, mode=mode, under=under
        )

    # -- canon and scopes, frames, declared conflicts (decisions 0078-0080) ---------------

    def canonize(self, fact_id: str, scope: str, *, reason: str) -> CanonEntry:
        """Put a consolidated, live memory in the active canon of a task scope."""
        return canon.canonize(self._ctx, fact_id, scope, reason=reason)

    def decanonize(self, fact_id: str, scope: str | None = None, *, reason: str) -> CanonRemoval:
        """Take a memory out of the active canon (of ``scope``; None: of every scope)."""
        return canon.decanonize(self._ctx, fact_id, scope, reason=reason)

    def end_scope(self, scope: str, *, reason: str) -> CanonRemoval:
        """End a task scope: every membership of it leaves the active canon."""
        return canon.end_scope(self._ctx, scope, reason=reason)

    def list_canon(self, *, scope: str | None = None) -> list[CanonEntry]:
        """The active canon (of one scope), oldest entry first."""
        return canon.list_canon(self._ctx, scope)

    def active_scopes(self) -> list[ScopeInUse]:
        """The task scopes with an active canon, by name."""
        return canon.active_scopes(self._ctx)

    def set_frame(self, fact_id: str, frame: str, *, reason: str) -> MemoryStatus:
        """Assign (or re-assign) a memory's frame: a filter, not an access boundary."""
        return canon.set_frame(self._ctx, fact_id, frame, reason=reason)

    def list_frames(self) -> list[FrameInUse]:
        """The frames in use, with how many live memories each."""
        return canon.list_frames(self._ctx)

    def mark_conflict(self, a: str, b: str, *, reason: str) -> ConflictRecord:
        """Declare two live memories conflicting versions (neither is changed)."""
        return declared_conflicts.mark_conflict(self._ctx, a, b, reason=reason)

    def list_conflicts(
        self, *, resolved: bool | None = None, limit: int | None = None
    ) -> list[ConflictRecord]:
        """The shared conflict queue: all, the open (False) or the resolved (True) ones."""
        return declared_conflicts.list_conflicts(self._ctx, resolved, limit=limit)

    # -- history context, timelines and links (decisions 0088-0090) --------------------

    def set_history_context(
        self,
        fact_id: str,
        *,
        event_at: datetime | str | None = None,
        session: str | None = None,
        session_position: int | None = None,
        reason: str,
    ) -> MemoryStatus:
        """Replace a memory's history context (what is not given becomes unknown)."""
        return timeline.set_history_context(
            self._ctx,
            fact_id,
            event_at=event_at,
            session=session,
            session_position=session_position,
            reason=reason,
        )

    def timeline(
        self,
        *,
        session: str | None = None,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        limit: int | None = None,
        order: str = "asc",
        include_forgotten: bool = False,
    ) -> list[TimelineEntry]:
        """The memories by event time, then session position, then record order."""
        return timeline.timeline(
            self._ctx,
            session=session,
            start=start,
            end=end,
            limit=limit,
            order=order,
            include_forgotten=include_forgotten,
        )

    def search_history(
        self,
        query: str,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        session: str | None = None,
        limit: int | None = None,
        expand: int = 0,
        via: str = "both",
    ) -> list[HistoryHit]:
        """Keyword search within a time window and session, with bounded evidence."""
        return timeline.search_history(
            self._ctx,
            query,
            start=start,
            end=end,
            session=session,
            limit=limit,
            expand=expand,
            via=via,
        )

    def link_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        """Assert a typed link between two memories (their names mapped; no trust gained)."""
        return history_links.link_memories(self._ctx, source_id, target_id, relation, reason=reason)

    def unlink_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        """Retract a link between two memories (audited)."""
        return history_links.unlink_memories(
            self._ctx, source_id, target_id, relation, reason=reason
        )

    def memory_links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        limit: int | None = None,
    ) -> LinkGraph:
        """The memories one link away from a memory, with the links."""
        return history_links.memory_links(
            self._ctx, fact_id, relation=relation, direction=direction, limit=limit
        )

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
            self._ctx,
            content,
            reason=reason,
            memory_ids=memory_ids,
            claim_ids=claim_ids,
            link_ids=link_ids,
            scope=scope,
            perspective=perspective,
            coverage=coverage,
            security_sensitive=security_sensitive,
        )

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

    # -- one fact's page (decision 0160) -------------------------------------------------

    def fact_protocol(self, fact_id: str) -> FactProtocol:
        """A fact's place in the protocol: stage, tier, canon, context, provenance, the
        claims citing it and the narratives resting on it (read-only)."""
        return fact_reads.fact_protocol(self._ctx, fact_id)

    def fact_access(self, fact_id: str, *, limit: int | None = None) -> FactAccess:
        """Who recalled a fact, and when, with its changes, newest first (read-only)."""
        return fact_reads.fact_access(self._ctx, fact_id, limit=limit)
