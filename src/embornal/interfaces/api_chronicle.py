"""``ChronicleAPI``: the history protocol facade both :class:`embornal.Memory`'s
``chronicle`` and the remote client's offer, as a Protocol (decision 0084).

``MemoryAPI.chronicle`` is typed with it, so the behaviour suite runs the protocol's
further operations (the audit, canon, narratives, claims …) locally and over REST alike.
Stdlib-only at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

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

__all__ = ["ChronicleAPI"]


@runtime_checkable
class ChronicleAPI(Protocol):
    """The audit, canon, frames, narratives, claims and timelines of the history protocol."""

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]: ...

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
    ) -> Cascade: ...

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
    ) -> Cascade: ...

    def search_archive(
        self,
        query: str,
        *,
        limit: int | None = None,
        frame: str | None = None,
        mode: str = "auto",
        under: str | None = None,
    ) -> list[RecallHit]: ...

    def canonize(self, fact_id: str, scope: str, *, reason: str) -> CanonEntry: ...

    def decanonize(
        self, fact_id: str, scope: str | None = None, *, reason: str
    ) -> CanonRemoval: ...

    def end_scope(self, scope: str, *, reason: str) -> CanonRemoval: ...

    def list_canon(self, *, scope: str | None = None) -> list[CanonEntry]: ...

    def active_scopes(self) -> list[ScopeInUse]: ...

    def set_frame(self, fact_id: str, frame: str, *, reason: str) -> MemoryStatus: ...

    def list_frames(self) -> list[FrameInUse]: ...

    def mark_conflict(self, a: str, b: str, *, reason: str) -> ConflictRecord: ...

    def list_conflicts(
        self, *, resolved: bool | None = None, limit: int | None = None
    ) -> list[ConflictRecord]: ...
    def set_history_context(
        self,
        fact_id: str,
        *,
        event_at: datetime | str | None = None,
        session: str | None = None,
        session_position: int | None = None,
        reason: str,
    ) -> MemoryStatus: ...

    def timeline(
        self,
        *,
        session: str | None = None,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        limit: int | None = None,
        order: str = "asc",
        include_forgotten: bool = False,
    ) -> list[TimelineEntry]: ...

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
    ) -> list[HistoryHit]: ...

    def link_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link: ...

    def unlink_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link: ...

    def memory_links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        limit: int | None = None,
        include_retired: bool = False,
    ) -> LinkGraph: ...
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
    ) -> Narrative: ...

    def current_narrative(
        self, *, scope: str | None = None, perspective: str | None = None
    ) -> NarrativeView: ...

    def review_narrative(self, narrative_id: str, *, note: str) -> Narrative: ...

    def narrative_history(
        self, *, limit: int | None = None, scope: str | None = None
    ) -> list[Narrative]: ...

    def list_narratives(self, *, limit: int | None = None) -> list[Narrative]: ...
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
    ) -> ClaimRecord: ...

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
    ) -> ClaimRecord: ...

    def adopt_claim(self, claim_id: str, reason: str) -> ClaimRecord: ...

    def revise_claim(
        self,
        claim_id: str,
        reason: str,
        *,
        statement: str | None = None,
        replacement_id: str | None = None,
        valid_from: str | None = None,
        valid_until: str | None = None,
    ) -> ClaimRecord: ...

    def withdraw_claim(self, claim_id: str, reason: str) -> ClaimRecord: ...

    def retract_claim_evidence(self, evidence_id: str, reason: str) -> ClaimRecord: ...

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
    ) -> ClaimList: ...

    def claim(self, claim_id: str, *, as_of: str | None = None) -> ClaimRecord: ...


if TYPE_CHECKING:  # mypy checks that the local side offers the API; the remote one
    # (``cli.remote_chronicle.RemoteChronicle``) is derived from the catalogue with these
    # signatures, which tests/interfaces/test_remote_chronicle.py holds it to
    from embornal.service.chronicle import Chronicle

    def _the_local_side_offers_it(local: Chronicle) -> ChronicleAPI:
        return local
