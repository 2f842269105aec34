"""``MemoryAPI``: the public methods both :class:`embornal.Memory` and the remote client
(:class:`embornal.interfaces.cli.remote.RemoteMemory`) offer, as a Protocol.

Code written against it (the CLI's memory commands, the behaviour suite in
``tests/behaviour/``) runs the same on a local memory and over the REST API. A
local-only operation (``purge``) raises :class:`~embornal.errors.InvalidInput`
(``local_only``) on the remote client. Stdlib-only at import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from embornal.domain.events import Event
from embornal.domain.facts import Fact
from embornal.service.graph_results import DanglingLink, Link, LinkGraph
from embornal.service.results import (
    DueFact,
    FactDetail,
    FactView,
    PathEntry,
    PurgeResult,
    RecallHit,
    TreeNode,
)

if TYPE_CHECKING:  # the spine values: for annotations only (the read path never loads them)
    from embornal.domain.spine import EvidenceRef, Lifetime, Visibility
    from embornal.interfaces.api_chronicle import ChronicleAPI
    from embornal.service.conflict_record import ConflictRecord
    from embornal.service.proposal_results import (
        Proposal,
        ProposalSummary,
        PruneResult,
        RetentionScore,
    )
    from embornal.service.protocol_results import (
        DueMemory,
        ForgottenMemory,
        MemoryStatus,
        ProvenanceReport,
    )

__all__ = ["MemoryAPI"]


@runtime_checkable
class MemoryAPI(Protocol):
    """Store, find, inspect and correct facts (the catalogue's fact operations)."""

    def store(
        self,
        path: str,
        content: str,
        *,
        tags: Sequence[str] | Mapping[str, str] | None = None,
        at: datetime | str | None = None,
        kind: str = "fact",
        attributes: Mapping[str, object] | None = None,
        reason: str | None = None,
        confidence: float | None = None,
        visibility: Visibility | str | None = None,
        source: str | None = None,
        evidence: Sequence[EvidenceRef | str] = (),
        lifetime: Lifetime | str | None = None,
    ) -> Fact: ...

    def supersede(
        self,
        fact_id: str,
        content: str,
        *,
        tags: Sequence[str] | Mapping[str, str] | None = None,
        reason: str | None = None,
        at: datetime | str | None = None,
        kind: str | None = None,
        attributes: Mapping[str, object] | None = None,
    ) -> Fact: ...

    def update(
        self, fact_id: str, attributes: Mapping[str, object | None], *, reason: str | None = None
    ) -> Fact: ...

    def find(
        self,
        kind: str,
        where: Mapping[str, str] | Sequence[str] = (),
        *,
        under: str | None = None,
        limit: int | None = None,
        as_of: datetime | str | None = None,
    ) -> list[Fact]: ...

    def kinds(self) -> list[dict[str, Any]]: ...

    def confirm(
        self, fact_id: str, *, evidence: EvidenceRef | str | None = None, reason: str | None = None
    ) -> Fact: ...

    def contradict(
        self,
        fact_id: str,
        *,
        by: str | None = None,
        evidence: EvidenceRef | str | None = None,
        reason: str,
    ) -> Fact: ...

    def add_evidence(
        self, fact_id: str, evidence: EvidenceRef | str, *, note: str | None = None
    ) -> Fact: ...

    def set_visibility(
        self, fact_id: str, visibility: Visibility | str, *, reason: str | None = None
    ) -> Fact: ...

    def pin(self, fact_id: str, *, reason: str | None = None) -> Fact: ...

    def unpin(self, fact_id: str, *, reason: str | None = None) -> Fact: ...

    def set_weight(
        self, fact_id: str, weight: float | None, *, reason: str | None = None
    ) -> Fact: ...

    def set_lifetime(
        self, fact_id: str, lifetime: Lifetime | str, *, reason: str | None = None
    ) -> Fact: ...

    def due(self, *, limit: int | None = None, under: str | None = None) -> list[DueFact]: ...

    def conflicts(
        self,
        *,
        status: str | None = "open",
        conflict_class: str | None = None,
        fact_id: str | None = None,
        limit: int | None = None,
    ) -> list[ConflictRecord]: ...

    def conflict(self, conflict_id: str) -> ConflictRecord: ...

    def resolve_conflict(
        self,
        conflict_id: str,
        *,
        keep: str | None = None,
        both: bool = False,
        merge: str | None = None,
        reason: str,
    ) -> ConflictRecord: ...

    def scan_conflicts(self, *, stale: bool = True) -> list[ConflictRecord]: ...

    # -- the history protocol (docs/model.md) ---------------------------------------

    def remember(
        self,
        content: str,
        *,
        source: str | None = None,
        tier: str | None = None,
        path: str | None = None,
        security_sensitive: bool = False,
        session: str | None = None,
        frame: str | None = None,
        reason: str | None = None,
        event_at: datetime | str | None = None,
        session_position: int | None = None,
        material_type: str | None = None,
        origin_id: str | None = None,
        capture_context: str | None = None,
    ) -> MemoryStatus: ...

    def promote(self, fact_id: str, *, reason: str) -> MemoryStatus: ...

    def corroborate(
        self,
        fact_id: str,
        source: str,
        *,
        common_origin: str | None = None,
        reason: str | None = None,
    ) -> ProvenanceReport: ...

    def provenance(self, fact_id: str) -> ProvenanceReport: ...

    def review(self, fact_id: str, *, note: str) -> MemoryStatus: ...

    def flag_sensitive(self, fact_id: str, *, reason: str) -> MemoryStatus: ...

    def due_for_consolidation(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]: ...

    def due_for_review(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]: ...

    def list_forgotten(self, *, limit: int | None = None) -> list[ForgottenMemory]: ...

    def forget(self, fact_id: str, *, reason: str) -> Fact: ...

    def restore(self, fact_id: str, *, reason: str) -> Fact: ...

    def purge(self, fact_id: str, *, reason: str) -> PurgeResult: ...

    def link(
        self, source: str, relation: str, target: str, *, reason: str | None = None
    ) -> Link: ...

    def unlink(
        self, source: str, relation: str, target: str, *, reason: str | None = None
    ) -> Link: ...

    def links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        depth: int = 1,
        limit: int | None = None,
    ) -> LinkGraph: ...

    def dangling_links(self, *, limit: int | None = None) -> list[DanglingLink]: ...

    def merge(self, survivor: str, source: str, *, reason: str) -> Fact: ...

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        under: str | None = None,
        reinforce: bool = True,
        mode: str = "auto",
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        rerank: bool = False,
        all: bool = False,
    ) -> list[RecallHit]: ...

    def ls(
        self, path: str = "/", *, as_of: datetime | str | None = None, all: bool = False
    ) -> list[PathEntry]: ...

    def tree(
        self,
        path: str = "/",
        *,
        dirs_only: bool = False,
        as_of: datetime | str | None = None,
        all: bool = False,
    ) -> TreeNode: ...

    def cat(
        self,
        path: str,
        *,
        limit: int | None = None,
        order_by: str = "date",
        recall: bool = False,
        as_of: datetime | str | None = None,
    ) -> list[FactView]: ...

    def show(self, fact_id: str, *, as_of: datetime | str | None = None) -> FactDetail: ...

    def history(self, target: str) -> list[Event]: ...

    def undo(self, event_id: int | str, *, reason: str) -> list[Event]: ...

    def propose(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        title: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal: ...

    def ingest(
        self,
        text: str,
        *,
        name: str | None = None,
        extractor: str = "rules",
        path: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal: ...

    def proposals(
        self, *, status: str | None = None, limit: int | None = None
    ) -> list[ProposalSummary]: ...

    def proposal(self, proposal_id: str) -> Proposal: ...

    def approve(
        self,
        proposal_id: str,
        *,
        items: Sequence[str] | None = None,
        reason: str | None = None,
        version: int | None = None,
    ) -> Proposal: ...

    def reject(self, proposal_id: str, *, reason: str) -> Proposal: ...

    def edit_proposal(
        self,
        proposal_id: str,
        *,
        drop: Sequence[str] | None = None,
        add: Sequence[Mapping[str, Any]] | None = None,
        reason: str | None = None,
        replace: Mapping[str, Mapping[str, Any]] | None = None,
        version: int | None = None,
    ) -> Proposal: ...

    def retention(self, *, lowest: int | None = None) -> list[RetentionScore]: ...

    def prune(
        self, *, threshold: float | None = None, limit: int | None = None, reason: str | None = None
    ) -> PruneResult: ...

    @property
    def chronicle(self) -> ChronicleAPI:
        """The history protocol's further operations (audit, canon, narratives, claims)."""
        ...

    def close(self) -> None: ...


if TYPE_CHECKING:  # mypy checks that Memory offers the API (the remote client derives it)
    from embornal.service.memory import Memory

    def _memory_offers_it(local: Memory) -> MemoryAPI:
        return local
