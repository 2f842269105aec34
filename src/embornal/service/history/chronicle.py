"""The history protocol's facade beyond capture, anchors and provenance:
``Memory.chronicle`` (docs/model.md, The chronicle and the recall cascade; decision 0084).

The protocol's capture, consolidation, anchors, provenance and accountable forgetting are
the memory's own methods (``Memory.remember``, ``promote``, ``pin``, ``corroborate`` …;
decision 0064). What it adds on top (the audit, and the canon, frames, narratives,
claims and timelines as they come) lives here, one delegating method per operation,
each handing the shared :class:`~embornal.service.context.ServiceContext` to a use-case
module, as :class:`embornal.Memory` does. The remote client offers the same methods
(:class:`~embornal.interfaces.cli.remote_chronicle.RemoteChronicle`), their signatures read
from this class (``ChronicleAPI``, decision 0176).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.domain.access.rights import (
    CLAIM_ENTRY,
    LEDGER,
    READS,
    REWRITES,
    SCOPE_ENTRIES,
    WRITES,
    need,
)
from embornal.lazy import Later
from embornal.service.later import declares, use_case

if TYPE_CHECKING:
    from datetime import datetime

    from embornal.service.claims import ledger as claims
    from embornal.service.claims import views as claim_views
    from embornal.service.conflicts import declared as declared_conflicts
    from embornal.service.conflicts.record import ConflictRecord
    from embornal.service.context import ServiceContext
    from embornal.service.facts import reads as fact_reads
    from embornal.service.graph import history_links
    from embornal.service.graph.results import Link
    from embornal.service.history import audit, canon, cascade, timeline
    from embornal.service.history.canon_results import CanonEntry
    from embornal.service.history.cascade_results import Cascade
    from embornal.service.narratives import accounts as narratives
else:  # each imported on first use (the remote client reads its signatures from this class)
    audit = Later("embornal.service.history.audit")
    canon = Later("embornal.service.history.canon")
    cascade = Later("embornal.service.history.cascade")
    claim_views = Later("embornal.service.claims.views")
    claims = Later("embornal.service.claims.ledger")
    declared_conflicts = Later("embornal.service.conflicts.declared")
    fact_reads = Later("embornal.service.facts.reads")
    history_links = Later("embornal.service.graph.history_links")
    narratives = Later("embornal.service.narratives.accounts")
    timeline = Later("embornal.service.history.timeline")

__all__ = ["Chronicle"]


class Chronicle:
    """The history protocol of one memory, as its subject sees it."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    audit_log = use_case(lambda: audit.audit_log, READS)

    # -- the recall cascade and the searches (decisions 0095-0097) ----------------------

    @declares(READS)
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

    search = use_case(lambda: cascade.search, READS)

    search_archive = use_case(lambda: cascade.search_archive, READS)

    # -- canon and scopes, frames, declared conflicts (decisions 0078-0080) ---------------

    canonize = use_case(lambda: canon.canonize, WRITES)

    decanonize = use_case(lambda: canon.decanonize, REWRITES)

    end_scope = use_case(lambda: canon.end_scope, (need(SCOPE_ENTRIES, "write", "delete"),))

    @declares(READS)
    def list_canon(self, *, scope: str | None = None) -> list[CanonEntry]:
        """The active canon (of one scope), oldest entry first."""
        return canon.list_canon(self._ctx, scope)

    active_scopes = use_case(lambda: canon.active_scopes, READS)

    set_frame = use_case(lambda: canon.set_frame, WRITES)

    list_frames = use_case(lambda: canon.list_frames, READS)

    mark_conflict = use_case(
        lambda: declared_conflicts.mark_conflict, (need("a", "write"), need("b", "write"))
    )

    @declares(READS)
    def list_conflicts(
        self, *, resolved: bool | None = None, limit: int | None = None
    ) -> list[ConflictRecord]:
        """The shared conflict queue: all, the open (False) or the resolved (True) ones."""
        return declared_conflicts.list_conflicts(self._ctx, resolved, limit=limit)

    # -- history context, timelines and links (decisions 0088-0090) --------------------

    set_history_context = use_case(lambda: timeline.set_history_context, WRITES)

    timeline = use_case(lambda: timeline.timeline, READS)

    search_history = use_case(lambda: timeline.search_history, READS)

    @declares((need("source_id", "write"), need("target_id", "read")))
    def link_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        """Assert a typed link between two memories (their names mapped; no trust gained)."""
        return history_links.link_memories(self._ctx, source_id, target_id, relation, reason=reason)

    @declares((need("source_id", "write"), need("target_id", "read")))
    def unlink_memories(
        self, source_id: str, target_id: str, relation: str, *, reason: str | None = None
    ) -> Link:
        """Retract a link between two memories (audited)."""
        return history_links.unlink_memories(
            self._ctx, source_id, target_id, relation, reason=reason
        )

    memory_links = use_case(lambda: history_links.memory_links, READS)

    narrate = use_case(
        lambda: narratives.narrate, (need("memory_ids", "write"), need(LEDGER, "create"))
    )

    current_narrative = use_case(lambda: narratives.current_narrative, READS)

    review_narrative = use_case(
        lambda: narratives.review_narrative,
        (need("the narrative's memories", "write"), need(LEDGER, "create")),
    )

    narrative_history = use_case(lambda: narratives.narrative_history, READS)

    list_narratives = use_case(lambda: narratives.list_narratives, READS)

    # -- the claims ledger (decisions 0081-0083) --

    create_claim = use_case(
        lambda: claims.create_claim, (need("about", "write"), need(LEDGER, "create"))
    )

    add_claim_evidence = use_case(lambda: claims.add_claim_evidence, CLAIM_ENTRY)

    adopt_claim = use_case(lambda: claims.adopt_claim, CLAIM_ENTRY)

    revise_claim = use_case(lambda: claims.revise_claim, CLAIM_ENTRY)

    withdraw_claim = use_case(lambda: claims.withdraw_claim, CLAIM_ENTRY)

    retract_claim_evidence = use_case(lambda: claims.retract_claim_evidence, CLAIM_ENTRY)

    recall_claims = use_case(lambda: claim_views.recall_claims, READS)

    claim = use_case(lambda: claim_views.claim, READS)

    # -- one fact's page (decision 0160) -------------------------------------------------

    fact_protocol = use_case(lambda: fact_reads.fact_protocol)

    fact_access = use_case(lambda: fact_reads.fact_access)
