"""The history protocol facade on the remote client: ``RemoteMemory.chronicle``, each
method one catalogue operation, as the local ``Memory.chronicle`` offers it (decision
0084). It holds the client's call of an operation, not the client (no mixin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from embornal.service.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse
    from embornal.service.cascade_results import Cascade
    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.claim_results import ClaimList, ClaimRecord
    from embornal.service.conflict_record import ConflictRecord
    from embornal.service.graph_results import Link, LinkGraph
    from embornal.service.narrative_results import Narrative, NarrativeView
    from embornal.service.protocol_results import MemoryStatus
    from embornal.service.results import RecallHit
    from embornal.service.timeline_results import HistoryHit, TimelineEntry

__all__ = ["RemoteChronicle"]

Call = Callable[..., Any]
"""``RemoteMemory._op``: the operation's name, then the ``Memory`` arguments."""


class RemoteChronicle:
    """The chronicle of the memory behind ``embornal serve``."""

    def __init__(self, op: Call) -> None:
        self._op = op

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        return cast("list[AuditEntry]", self._op("audit_log", limit=limit))

    def recall(self, query: str | None = None, *, limit: int | None = None,
               frame: str | None = None, mode: str = "auto", under: str | None = None,
               scope: str | None = None, reinforce: bool = True,
               now: datetime | str | None = None, rerank: bool = False) -> Cascade:  # fmt: skip
        return cast("Cascade", self._op("recall_cascade", query=query, limit=limit, frame=frame,
                                        mode=mode, under=under, scope=scope,
                                        reinforce=reinforce, now=now, rerank=rerank))  # fmt: skip

    def search(self, query: str, *, limit: int | None = None, frame: str | None = None,
               mode: str = "auto", under: str | None = None,
               scope: str | None = None) -> Cascade:  # fmt: skip
        return cast("Cascade", self._op("search", query=query, limit=limit, frame=frame,
                                        mode=mode, under=under, scope=scope))  # fmt: skip

    def search_archive(self, query: str, *, limit: int | None = None, mode: str = "auto",
                       under: str | None = None) -> list[RecallHit]:  # fmt: skip
        return cast("list[RecallHit]", self._op("search_archive", query=query, limit=limit,
                                                mode=mode, under=under))  # fmt: skip

    def canonize(self, fact_id: str, scope: str, *, reason: str) -> CanonEntry:
        return cast("CanonEntry", self._op("canonize", fact_id=fact_id, scope=scope,
                                           reason=reason))  # fmt: skip

    def decanonize(self, fact_id: str, scope: str | None = None, *, reason: str) -> CanonRemoval:
        return cast("CanonRemoval", self._op("decanonize", fact_id=fact_id, scope=scope,
                                             reason=reason))  # fmt: skip

    def end_scope(self, scope: str, *, reason: str) -> CanonRemoval:
        return cast("CanonRemoval", self._op("end_scope", scope=scope, reason=reason))

    def list_canon(self, *, scope: str | None = None) -> list[CanonEntry]:
        return cast("list[CanonEntry]", self._op("list_canon", scope=scope))

    def active_scopes(self) -> list[ScopeInUse]:
        return cast("list[ScopeInUse]", self._op("active_scopes"))

    def set_frame(self, fact_id: str, frame: str, *, reason: str) -> MemoryStatus:
        return cast("MemoryStatus", self._op("set_frame", fact_id=fact_id, frame=frame,
                                             reason=reason))  # fmt: skip

    def list_frames(self) -> list[FrameInUse]:
        return cast("list[FrameInUse]", self._op("list_frames"))

    def mark_conflict(self, a: str, b: str, *, reason: str) -> ConflictRecord:
        return cast("ConflictRecord", self._op("mark_conflict", a=a, b=b, reason=reason))

    def list_conflicts(
        self, *, resolved: bool | None = None, limit: int | None = None
    ) -> list[ConflictRecord]:
        """Over REST this is the queue's list (``GET /conflicts?status=…``)."""
        status = "all" if resolved is None else "resolved" if resolved else "open"
        return cast("list[ConflictRecord]", self._op("conflicts", status=status, limit=limit))

    def set_history_context(
        self,
        fact_id: str,
        *,
        event_at: datetime | str | None = None,
        session: str | None = None,
        session_position: int | None = None,
        reason: str,
    ) -> MemoryStatus:
        return cast("MemoryStatus", self._op("set_history_context", fact_id=fact_id,
                    event_at=event_at, session=session, session_position=session_position,
                    reason=reason))  # fmt: skip

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
        return cast("list[TimelineEntry]", self._op("timeline", session=session, start=start,
                    end=end, limit=limit, order=order,
                    include_forgotten=include_forgotten))  # fmt: skip

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
        return cast("list[HistoryHit]", self._op("search_history", query=query, start=start,
                    end=end, session=session, limit=limit, expand=expand,
                    via=via))  # fmt: skip

    def link_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        return cast("Link", self._op("link_memories", source_id=source_id,
                    target_id=target_id, relation=relation, reason=reason))  # fmt: skip

    def unlink_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        return cast("Link", self._op("unlink_memories", source_id=source_id,
                    target_id=target_id, relation=relation, reason=reason))  # fmt: skip

    def memory_links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        limit: int | None = None,
    ) -> LinkGraph:
        return cast("LinkGraph", self._op("memory_links", fact_id=fact_id, relation=relation,
                    direction=direction, limit=limit))  # fmt: skip

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
        return cast("Narrative", self._op(
            "narrate", content=content, reason=reason, memory_ids=memory_ids,
            claim_ids=claim_ids, link_ids=link_ids, scope=scope, perspective=perspective,
            coverage=coverage, security_sensitive=security_sensitive,
        ))  # fmt: skip

    def current_narrative(
        self, *, scope: str | None = None, perspective: str | None = None
    ) -> NarrativeView:
        return cast(
            "NarrativeView", self._op("current_narrative", scope=scope, perspective=perspective)
        )

    def review_narrative(self, narrative_id: str, *, note: str) -> Narrative:
        return cast("Narrative", self._op("review_narrative", narrative_id=narrative_id, note=note))

    def narrative_history(
        self, *, limit: int | None = None, scope: str | None = None
    ) -> list[Narrative]:
        return cast("list[Narrative]", self._op("narrative_history", limit=limit, scope=scope))

    def list_narratives(self, *, limit: int | None = None) -> list[Narrative]:
        return cast("list[Narrative]", self._op("list_narratives", limit=limit))

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
        return cast(
            "ClaimRecord",
            self._op(
                "create_claim",
                statement=statement,
                claim_type=claim_type,
                reason=reason,
                scope=scope,
                about=about,
                asserted_by=asserted_by,
                statement_at=statement_at,
                valid_from=valid_from,
                valid_until=valid_until,
                security_sensitive=security_sensitive,
            ),
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
        return cast(
            "ClaimRecord",
            self._op(
                "claim_evidence",
                claim_id=claim_id,
                memory_id=memory_id,
                source=source,
                stance=stance,
                note=note,
                quote=quote,
                locator=locator,
                common_origin=common_origin,
            ),
        )

    def adopt_claim(self, claim_id: str, reason: str) -> ClaimRecord:
        return cast("ClaimRecord", self._op("adopt_claim", claim_id=claim_id, reason=reason))

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
        return cast(
            "ClaimRecord",
            self._op(
                "revise_claim",
                claim_id=claim_id,
                reason=reason,
                statement=statement,
                replacement_id=replacement_id,
                valid_from=valid_from,
                valid_until=valid_until,
            ),
        )

    def withdraw_claim(self, claim_id: str, reason: str) -> ClaimRecord:
        return cast("ClaimRecord", self._op("withdraw_claim", claim_id=claim_id, reason=reason))

    def retract_claim_evidence(self, evidence_id: str, reason: str) -> ClaimRecord:
        return cast(
            "ClaimRecord", self._op("retract_evidence", evidence_id=evidence_id, reason=reason)
        )

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
        return cast(
            "ClaimList",
            self._op(
                "recall_claims",
                query=query,
                status=status,
                scope=scope,
                as_of=as_of,
                valid_at=valid_at,
                limit=limit,
                include_inactive=include_inactive,
            ),
        )

    def claim(self, claim_id: str, *, as_of: str | None = None) -> ClaimRecord:
        return cast("ClaimRecord", self._op("inspect_claim", claim_id=claim_id, as_of=as_of))
