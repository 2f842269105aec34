"""The one application API (CLI, MCP, HTTP call nothing below it): a facade over use cases."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from embornal.domain.access import Rule
from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.clock import Clock
from embornal.domain.events import ActorKind, Event
from embornal.domain.facts import DEFAULT_KIND, Fact
from embornal.domain.ranking import FusionSettings
from embornal.domain.tags import Tag
from embornal.service import recall
from embornal.service.context import ServiceContext
from embornal.service.later import Later
from embornal.storage.contract import Store

if TYPE_CHECKING:
    from embornal.adapters.config import IngestConfig
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.domain.proposal_policy import ProposalPolicy
    from embornal.domain.spine import EvidenceRef, Lifetime, Visibility
    from embornal.domain.spine_series import SpineSeries
    from embornal.service import (
        admin,
        backup,
        browse,
        chronicle,
        conflicts,
        copying,
        details,
        export,
        fact_rights,
        facts,
        import_tools,
        importance,
        importing,
        ingest,
        kinds,
        lifecycle,
        links,
        listing,
        merge,
        overview,
        proposals,
        protocol,
        retention,
        sharing,
        spine,
        tagging,
        undo,
        visible,
    )
    from embornal.service.backup import Backup
    from embornal.service.chronicle import Chronicle
    from embornal.service.conflict_record import ConflictRecord
    from embornal.service.copying import Copied
    from embornal.service.details import NewFact
    from embornal.service.export import EventsExport, MarkdownExport
    from embornal.service.graph_results import DanglingLink, Link, LinkGraph
    from embornal.service.import_tools import Progress, ToolImport
    from embornal.service.importing import EventsImport, MarkdownImport
    from embornal.service.listing import MemoryList, MemoryMap
    from embornal.service.overview import Overview
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
    from embornal.service.reindex_result import ReindexResult
    from embornal.service.rerank import RerankSource
    from embornal.service.results import (
        DueFact,
        FactDetail,
        FactView,
        PathEntry,
        PurgeResult,
        RecallHit,
        TreeNode,
    )
    from embornal.service.sharing import IssuedToken, PolicyCheck
    from embornal.service.tokens import TokenInfo
    from embornal.storage.contract import ListFilter
else:  # off the start-up path of `memory recall` and `cat`: imported on first use
    admin = Later("embornal.service.admin")
    conflicts = Later("embornal.service.conflicts")
    backup = Later("embornal.service.backup")
    browse = Later("embornal.service.browse")  # ls, tree, cat, show, history
    copying = Later("embornal.service.copying")
    chronicle = Later("embornal.service.chronicle")
    export = Later("embornal.service.export")
    fact_rights = Later("embornal.service.fact_rights")
    importing = Later("embornal.service.importing")
    import_tools = Later("embornal.service.import_tools")
    facts = Later("embornal.service.facts")
    importance = Later("embornal.service.importance")
    kinds = Later("embornal.service.kinds")
    lifecycle = Later("embornal.service.lifecycle")
    ingest = Later("embornal.service.ingest")
    links = Later("embornal.service.links")
    listing = Later("embornal.service.listing")
    merge = Later("embornal.service.merge")
    overview = Later("embornal.service.overview")
    proposals = Later("embornal.service.proposals")
    retention = Later("embornal.service.retention")
    protocol = Later("embornal.service.protocol")
    sharing = Later("embornal.service.sharing")
    spine = Later("embornal.service.spine")
    tagging = Later("embornal.service.tagging")
    details = Later("embornal.service.details")
    undo = Later("embornal.service.undo")
    visible = Later("embornal.service.visible")

__all__ = ["MAX_LIMIT", "Memory"]
AsOf = datetime | str | None  # a time to look back to (the reads' ``as_of``)


class Memory:
    """A memory as ``subject`` sees it: every read filtered, every write checked."""

    def __init__(self, context: ServiceContext) -> None:  # Memory.open makes one from a path
        self._ctx = context

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        clock: Clock | None = None,
        subject: str = "default",
        actor_kind: ActorKind | str = ActorKind.PERSON,
        default_limit: int = 10,
        embedder: EmbeddingProvider | None = None,
        vector_width: int | None = None,
        fusion: FusionSettings | None = None,
        seed: bool = True,
        proposals: ProposalPolicy | None = None,
        ingest: IngestConfig | None = None,
        reranker: RerankSource = None,
    ) -> Memory:
        """Open (creating 0700/0600 and migrating as needed) the memory at ``path`` (None:
        the platform's data directory). ``embedder`` turns on recall by meaning;
        ``vector_width`` (default: the embedder's) must match on every later open.
        ``seed=False``: a memory created now has an empty log, for ``import_events``.
        ``reranker`` (or a function that builds one on first use): ``recall(rerank=True)``."""
        ctx = ServiceContext.open(
            path,
            clock=clock,
            subject=subject,
            actor_kind=actor_kind,
            default_limit=default_limit,
            embedder=embedder,
            vector_width=vector_width,
            fusion=fusion,
            seed=seed,
            proposals=proposals,
            ingest=ingest,
            reranker=reranker,
        )
        return cls(ctx)

    def close(self) -> None:
        self._ctx.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def as_subject(self, subject: str, actor_kind: ActorKind | str | None = None) -> Memory:
        """The same memory (same store) seen by another subject, e.g. a token's."""
        return type(self)(self._ctx.as_subject(subject, actor_kind))

    @property
    def subject(self) -> str:
        return self._ctx.subject

    @property
    def actor_kind(self) -> ActorKind:
        return self._ctx.actor_kind

    @property
    def default_limit(self) -> int:
        return self._ctx.default_limit

    @property
    def db_path(self) -> str:
        return self._ctx.store.path

    @property
    def migrations_applied(self) -> list[str]:  # those this open applied (none: up to date)
        return list(self._ctx.store.migrations_applied)

    @property
    def chronicle(self) -> Chronicle:
        """The history protocol's further operations: audit, canon, narratives, claims."""
        return chronicle.Chronicle(self._ctx)

    @property
    def _store(self) -> Store:  # for tests and benchmarks that inspect the storage
        return self._ctx.store

    # -- each method: one call of a use-case module (service.facts, .recall, .sharing …) ----

    def store(
        self,
        path: str,
        content: str,
        *,
        tags: Sequence[str] | Mapping[str, str] | None = None,
        at: datetime | str | None = None,
        kind: str = DEFAULT_KIND,
        attributes: Mapping[str, object] | None = None,
        reason: str | None = None,
        confidence: float | None = None,
        visibility: Visibility | str | None = None,
        source: str | None = None,
        evidence: Sequence[EvidenceRef | str] = (),
        lifetime: Lifetime | str | None = None,
    ) -> Fact:
        """Store one fact on ``path``; its kind, attributes, confidence (None: the actor
        kind's prior), visibility, source, evidence, lifetime are checked: bad ones write none."""
        return facts.store(
            self._ctx,
            details.NewFact(
                path,
                content,
                tags,
                at,
                kind,
                attributes,
                confidence,
                visibility,
                source,
                evidence,
                lifetime,
            ),
            reason=reason,
        )

    def store_many(self, items: Sequence[NewFact], *, reason: str | None = None) -> list[Fact]:
        """Store many facts in one transaction: all, or none."""
        return facts.store_many(self._ctx, items, reason=reason)

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
    ) -> Fact:
        """Correct a fact: a new one on its path points at it (kind, attributes kept)."""
        return facts.supersede(self._ctx, fact_id, content, tags, reason, at, kind, attributes)

    def update(
        self, fact_id: str, attributes: Mapping[str, object | None], *, reason: str | None = None
    ) -> Fact:
        """Change some attributes of an active fact (None removes one), validated whole."""
        return kinds.update(self._ctx, fact_id, attributes, reason=reason)

    def confirm(
        self, fact_id: str, *, evidence: EvidenceRef | str | None = None, reason: str | None = None
    ) -> Fact:
        """Vouch for an active fact: confidence toward 1, ``last_confirmed_at`` now."""
        return spine.confirm(self._ctx, fact_id, evidence=evidence, reason=reason)

    def contradict(
        self,
        fact_id: str,
        *,
        by: str | None = None,
        evidence: EvidenceRef | str | None = None,
        reason: str,
    ) -> Fact:
        """Dispute an active fact (``by``: the fact contradicting it): confidence decays."""
        return spine.contradict(self._ctx, fact_id, by=by, evidence=evidence, reason=reason)

    def add_evidence(
        self, fact_id: str, evidence: EvidenceRef | str, *, note: str | None = None
    ) -> Fact:
        """Append evidence (``quote:…``, ``uri:…``; never edited) to a fact: a weak confirm."""
        return spine.add_evidence(self._ctx, fact_id, evidence, note=note)

    def set_visibility(
        self, fact_id: str, visibility: Visibility | str, *, reason: str | None = None
    ) -> Fact:
        """Who may see a fact the subject owns: shared, private, restricted:a,b."""
        return visible.set_visibility(self._ctx, fact_id, visibility, reason=reason)

    def pin(self, fact_id: str, *, reason: str | None = None) -> Fact:
        """Pin a fact: it ranks higher in recall (a pinned one again: nothing written)."""
        return importance.pin(self._ctx, fact_id, reason=reason)

    def unpin(self, fact_id: str, *, reason: str | None = None) -> Fact:
        return importance.unpin(self._ctx, fact_id, reason=reason)

    def set_weight(self, fact_id: str, weight: float | None, *, reason: str | None = None) -> Fact:
        """The user weight, 0..1 (0.5 neutral; None takes it off): lifts or lowers recall."""
        return importance.set_weight(self._ctx, fact_id, weight, reason=reason)

    def set_lifetime(
        self, fact_id: str, lifetime: Lifetime | str, *, reason: str | None = None
    ) -> Fact:
        """``permanent``, ``standard``, ``ephemeral`` or ``until:YYYY-MM-DD`` (not past)."""
        return importance.set_lifetime(self._ctx, fact_id, lifetime, reason=reason)

    def due(self, *, limit: int | None = None, under: str | None = None) -> list[DueFact]:
        """The stale facts to confirm again, most urgent first."""
        return importance.due(self._ctx, limit=limit, under=under)

    def conflicts(
        self,
        *,
        status: str | None = "open",
        conflict_class: str | None = None,
        fact_id: str | None = None,
        limit: int | None = None,
    ) -> list[ConflictRecord]:
        """The conflicts whose every fact the subject may read, newest first (open ones)."""
        return conflicts.conflicts(
            self._ctx, status=status, conflict_class=conflict_class, fact_id=fact_id, limit=limit
        )

    def conflict(self, conflict_id: str) -> ConflictRecord:
        """One conflict (its id or a unique prefix) with its facts side by side."""
        return conflicts.conflict(self._ctx, conflict_id)

    def resolve_conflict(
        self,
        conflict_id: str,
        *,
        keep: str | None = None,
        both: bool = False,
        merge: str | None = None,
        reason: str,
    ) -> ConflictRecord:
        """Decide a conflict: ``keep`` one fact (confirmed; the others forgotten), ``merge``
        the others into one, or ``both``."""
        return conflicts.resolve_conflict(
            self._ctx, conflict_id, keep=keep, both=both, merge=merge, reason=reason
        )

    def scan_conflicts(self, *, stale: bool = True) -> list[ConflictRecord]:
        """Look for duplicates, contradictions and (``stale``) stale facts; open them."""
        return conflicts.scan_conflicts(self._ctx, stale=stale)

    # -- the history protocol (docs/model.md; service.protocol) ----------------------------

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
    ) -> MemoryStatus:
        """Capture working material (default path: the session's inbox), screened."""
        return protocol.remember(
            self._ctx,
            content,
            source=source,
            tier=tier,
            path=path,
            security_sensitive=security_sensitive,
            session=session,
            frame=frame,
            reason=reason,
            event_at=event_at,
            session_position=session_position,
        )

    def promote(self, fact_id: str, *, reason: str) -> MemoryStatus:
        """Consolidate working material (its truth and tier unchanged)."""
        return protocol.promote(self._ctx, fact_id, reason=reason)

    def corroborate(
        self,
        fact_id: str,
        source: str,
        *,
        common_origin: str | None = None,
        reason: str | None = None,
    ) -> ProvenanceReport:
        """Record a corroborating source (always audited); testimony once the gate is met."""
        return protocol.corroborate(
            self._ctx, fact_id, source, common_origin=common_origin, reason=reason
        )

    def provenance(self, fact_id: str) -> ProvenanceReport:
        """The recorded sources of a memory and whether the corroboration gate is met."""
        return protocol.provenance(self._ctx, fact_id)

    def review(self, fact_id: str, *, note: str) -> MemoryStatus:
        """Re-examine an interpretation: its review clock starts again."""
        return protocol.review(self._ctx, fact_id, note=note)

    def flag_sensitive(self, fact_id: str, *, reason: str) -> MemoryStatus:
        """Flag a memory security-sensitive (an unsupported anchor is lifted with it)."""
        return protocol.flag_sensitive(self._ctx, fact_id, reason=reason)

    def due_for_consolidation(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]:
        """Working material to promote or forget, oldest first."""
        return protocol.due_for_consolidation(self._ctx, days=days, limit=limit)

    def due_for_review(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]:
        """Interpretations not reviewed for ``days`` (default 30), longest first."""
        return protocol.due_for_review(self._ctx, days=days, limit=limit)

    def list_forgotten(self, *, limit: int | None = None) -> list[ForgottenMemory]:
        """Forgotten memories, the last first, with who forgot them and why."""
        return protocol.list_forgotten(self._ctx, limit=limit)

    def forget(self, fact_id: str, *, reason: str) -> Fact:
        """Hide a fact from recall, keeping it (and why) in the history; restorable."""
        return lifecycle.forget(self._ctx, fact_id, reason=reason)

    def restore(self, fact_id: str, *, reason: str) -> Fact:
        """Bring a forgotten fact back into recall."""
        return lifecycle.restore(self._ctx, fact_id, reason=reason)

    def purge(self, fact_id: str, *, reason: str) -> PurgeResult:
        """Erase a fact's content from every table, index and event payload. Irreversible."""
        return lifecycle.purge(self._ctx, fact_id, reason=reason)

    def undo(self, event_id: int | str, *, reason: str) -> list[Event]:
        """Append the events that undo one event of the log (its id: the # of history)."""
        return undo.undo(self._ctx, event_id, reason=reason)

    # -- the graph (service.links, service.merge) ------------------------------------------

    def link(self, source: str, relation: str, target: str, *, reason: str | None = None) -> Link:
        """Link two facts with a typed relation, in its canonical direction."""
        return links.link(self._ctx, source, relation, target, reason=reason)

    def unlink(self, source: str, relation: str, target: str, *, reason: str | None = None) -> Link:
        """Take a typed link off (a dangling one too)."""
        return links.unlink(self._ctx, source, relation, target, reason=reason)

    def links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        depth: int = 1,
        limit: int | None = None,
    ) -> LinkGraph:
        """The facts linked to a fact, breadth first up to ``depth`` links away."""
        return links.links(
            self._ctx, fact_id, relation=relation, direction=direction, depth=depth, limit=limit
        )

    def dangling_links(self, *, limit: int | None = None) -> list[DanglingLink]:
        """The links whose target is forgotten or purged (nothing is deleted)."""
        return links.dangling(self._ctx, limit=limit)

    def merge(self, survivor: str, source: str, *, reason: str) -> Fact:
        """Merge ``source`` into ``survivor``: aliases and evidence absorbed, source archived."""
        return merge.merge(self._ctx, survivor, source, reason)

    # -- proposals and retention (service.proposals, service.retention) -------------------

    def propose(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        title: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal:
        """Open a proposal of draft items (create, update, archive, supersede): none is a
        fact until approved (a configured auto-approve rule may approve it at once)."""
        return proposals.propose(self._ctx, items, title=title, source=source, reason=reason)

    def ingest(
        self,
        text: str,
        *,
        name: str | None = None,
        extractor: str = "rules",
        path: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal:
        """Draft memories from a conversation or note (``rules``, or the configured
        ``llm``) and open ONE proposal of them; nothing is stored until it is approved."""
        return ingest.ingest(
            self._ctx, text, name=name, extractor=extractor, path=path, source=source, reason=reason
        )

    def proposals(
        self, *, status: str | None = None, limit: int | None = None
    ) -> list[ProposalSummary]:
        """The proposals the subject may see, newest first (status: open, approved, rejected)."""
        return proposals.list_proposals(self._ctx, status=status, limit=limit)

    def proposal(self, proposal_id: str) -> Proposal:
        """One proposal whole: its items and how it was decided."""
        return proposals.show(self._ctx, proposal_id)

    def approve(
        self,
        proposal_id: str,
        *,
        items: Sequence[str] | None = None,
        reason: str | None = None,
        version: int | None = None,
    ) -> Proposal:
        """Apply the chosen items (None: all) of the ``version`` read; the rest are declined."""
        return proposals.approve(
            self._ctx, proposal_id, items=items, reason=reason, version=version
        )

    def may_decide_proposals(self) -> bool:
        """Whether this subject may approve and reject (a person; an assistant by policy)."""
        return proposals.may_decide(self._ctx)

    def permitted(self, fact_id: str | None = None) -> frozenset[str]:
        """The corrections the subject may make on ``fact_id`` (or ``{"store"}`` without one)."""
        return fact_rights.permitted(self._ctx, fact_id)

    def reject(self, proposal_id: str, *, reason: str) -> Proposal:
        """Close a proposal with nothing applied (a reason is required)."""
        return proposals.reject(self._ctx, proposal_id, reason=reason)

    def edit_proposal(
        self,
        proposal_id: str,
        *,
        drop: Sequence[str] | None = None,
        add: Sequence[Mapping[str, Any]] | None = None,
        reason: str | None = None,
        replace: Mapping[str, Mapping[str, Any]] | None = None,
        version: int | None = None,
    ) -> Proposal:
        """Drop items by number, replace items in place (``{number: item}``), or add
        items, while a proposal is open (``version``: the one read; changed since: refused)."""
        return proposals.edit(
            self._ctx,
            proposal_id,
            drop=drop or (),
            add=add or (),
            reason=reason,
            replace=replace,
            version=version,
        )

    def retention(self, *, lowest: int | None = None) -> list[RetentionScore]:
        """The live facts least worth keeping, lowest retention score first, with parts."""
        return retention.retention(self._ctx, lowest=lowest)

    def prune(
        self, *, threshold: float | None = None, limit: int | None = None, reason: str | None = None
    ) -> PruneResult:
        """Open ONE archive proposal of the facts scoring below ``threshold``; deletes nothing."""
        return retention.prune(self._ctx, threshold=threshold, limit=limit, reason=reason)

    # -- reading (service.recall, service.browse) -------------------------------------------

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        under: str | None = None,
        reinforce: bool = True,
        mode: str = "auto",
        as_of: AsOf = None,
        now: datetime | str | None = None,
        rerank: bool = False,
        all: bool = False,
    ) -> list[RecallHit]:
        """Find live facts by keyword, meaning or both (``mode``: keyword, vector, hybrid,
        auto); no query: the strongest. Each lifts its strength unless not ``reinforce``.
        ``now``: when the question is asked ("last week" in it is read against it);
        ``rerank``: the best candidates reordered by the cross-encoder (decision 0115);
        ``all``: the guide under ``/memory`` too (left out otherwise, decision 0154)."""
        return recall.recall(
            self._ctx,
            query,
            limit=limit,
            under=under,
            reinforce=reinforce,
            mode=mode,
            as_of=as_of,
            now=now,
            rerank=rerank,
            guide=all,
        )

    def find(
        self,
        kind: str,
        where: Mapping[str, str] | Sequence[str] = (),
        *,
        under: str | None = None,
        limit: int | None = None,
        as_of: AsOf = None,
    ) -> list[Fact]:
        """Live facts of ``kind`` whose attributes equal ``where`` (``["status=active"]``)."""
        return kinds.find(self._ctx, kind, where, under=under, limit=limit, as_of=as_of)

    def kinds(self) -> list[dict[str, Any]]:
        return kinds.kinds(self._ctx)  # every kind's schema: fields, types, vocabularies

    def ls(self, path: str = "/", *, as_of: AsOf = None, all: bool = False) -> list[PathEntry]:
        """One level below ``path``: each child with its own fact count and child count;
        ``all``: the guide under ``/memory`` too (shown anyway when ``path`` is in it)."""
        return browse.ls(self._ctx, path, as_of, guide=all)

    def tree(
        self, path: str = "/", *, dirs_only: bool = False, as_of: AsOf = None, all: bool = False
    ) -> TreeNode:
        """The whole tree below ``path``; ``dirs_only`` keeps the paths that hold paths;
        ``all``: the guide under ``/memory`` too (shown anyway when ``path`` is in it)."""
        return browse.tree(self._ctx, path, dirs_only=dirs_only, as_of=as_of, guide=all)

    def list_memories(
        self, where: ListFilter, *, page: int = 1, page_size: int = 50, all: bool = False
    ) -> MemoryList:
        """The live facts that ``where`` keeps (filtered, sorted, paged by the store)."""
        return listing.list_memories(self._ctx, where, page=page, page_size=page_size, guide=all)

    def link_map(
        self,
        *,
        under: str | None = None,
        relation: str | None = None,
        limit: int = 60,
        all: bool = False,
    ) -> MemoryMap:
        """The most linked facts and the typed links between them (the whole graph)."""
        return listing.link_map(self._ctx, under=under, relation=relation, limit=limit, guide=all)

    def cat(
        self,
        path: str,
        *,
        limit: int | None = None,
        order_by: str = "date",
        recall: bool = False,
        as_of: AsOf = None,
    ) -> list[FactView]:
        """A path's facts, oldest (``date``) or strongest (``signal``) first."""
        return browse.cat(self._ctx, path, as_of, limit=limit, order_by=order_by, recall=recall)

    def show(self, fact_id: str, *, as_of: AsOf = None) -> FactDetail:
        """One fact whole; ``as_of`` (also of recall, find, ls, tree, cat): as it was then."""
        return browse.show(self._ctx, fact_id, as_of)

    def spine_series(self, fact_id: str) -> SpineSeries:
        """A fact's confidence, c_eff and strength over time, from its creation to now."""
        return browse.spine_series(self._ctx, fact_id)

    def history(self, target: str) -> list[Event]:
        """The events of a fact (with its supersession chain) or of a path."""
        return browse.history(self._ctx, target)

    def tag_path(self, path: str, tags: Sequence[str] | Mapping[str, str]) -> list[Tag]:
        """Put tags on a path; the subject's facts below inherit them (their own tags win)."""
        return tagging.tag_path(self._ctx, path, tags)

    def untag_path(self, path: str, keys: Sequence[str]) -> None:
        """Take the subject's tags of these keys off a path (others' stay)."""
        return tagging.untag_path(self._ctx, path, keys)

    def policies(self) -> list[Rule]:
        """Every rule of ``casbin_rule``."""
        return sharing.policies(self._ctx)

    def policy_add(self, ptype: str, values: Sequence[str]) -> Rule:
        """Add one rule (``p`` or ``g``); refused if it exists or nests roles too deep."""
        return sharing.policy_add(self._ctx, ptype, values)

    def narrow_token_rules(self) -> list[Rule]:
        """Older tokens' ``write`` on ``path:/*`` becomes ``create`` (decision 0128)."""
        return sharing.narrow_token_rules(self._ctx)

    def policy_remove(self, ptype: str, values: Sequence[str]) -> Rule:
        """Remove one rule; refused if there is no such rule."""
        return sharing.policy_remove(self._ctx, ptype, values)

    def policy_check(self, subject: str, action: str, target: str) -> PolicyCheck:
        """Would ``subject`` be allowed ``action`` on ``target`` (a path or a fact id)?"""
        return sharing.policy_check(self._ctx, subject, action, target)

    def token_add(
        self,
        subject: str,
        *,
        name: str | None = None,
        expires_in_days: float | None = None,
        rules: bool = True,
        person: bool = False,
    ) -> IssuedToken:
        """Issue a token for ``subject`` (shown once) and, unless ``rules=False``, its rules.
        ``person``: a person holds it (its writes and decisions are a person's); else an
        assistant (decision 0147)."""
        return sharing.token_add(
            self._ctx,
            subject,
            name=name,
            expires_in_days=expires_in_days,
            rules=rules,
            person=person,
        )

    def tokens(self, *, include_inactive: bool = False) -> list[TokenInfo]:
        """The tokens issued (active ones only, unless ``include_inactive``)."""
        return sharing.tokens(self._ctx, include_inactive=include_inactive)

    def token_revoke(self, token_id: str) -> TokenInfo:
        """Revoke the token of this id (a unique prefix, or the token itself)."""
        return sharing.token_revoke(self._ctx, token_id)

    def authenticate(self, token: str) -> str:
        """The subject a bearer token stands for (raises ``Unauthenticated``)."""
        return sharing.authenticate(self._ctx, token)

    def token_of(self, token: str) -> TokenInfo:
        """The active token ``token`` is: its subject and who holds it, a person or an
        assistant (raises ``Unauthenticated``)."""
        return sharing.token_of(self._ctx, token)

    def rebuild(self, *, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Replay the log into fresh projections, swap them in; return the events replayed."""
        return admin.rebuild(self._ctx, progress)

    def verify(self) -> list[str]:
        """What differs between the live projections and a replay (empty: all equal)."""
        return admin.verify(self._ctx)

    def reindex(
        self,
        *,
        limit: int | None = None,
        everything: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReindexResult:
        """Give a vector to each fact waiting for one; ``everything`` re-embeds all facts."""
        return admin.reindex(self._ctx, limit=limit, everything=everything, progress=progress)

    def pending_embeddings(self) -> int:
        """How many live facts (or pieces) wait for a vector; see reindex."""
        return admin.pending_embeddings(self._ctx)

    def overview(self) -> Overview:
        """The facts the subject may read by state, kind and stage; events; vectors due."""
        return overview.overview(self._ctx)

    def keyword_probe(self) -> tuple[str, bool] | None:
        """Whether the keyword index finds a live fact by one of its words (``doctor``)."""
        return overview.keyword_probe(self._ctx)

    # -- moving a memory whole (service.export, service.importing, service.backup) ---------

    def export_events(self, file: str) -> EventsExport:
        """Write the log the subject may read to ``file`` as NDJSON (the lossless form)."""
        return export.export_events(self._ctx, file)

    def export_markdown(self, directory: str, *, everything: bool = False) -> MarkdownExport:
        """One Markdown file a path in ``directory`` (forgotten ones too with ``everything``)."""
        return export.export_markdown(self._ctx, directory, everything=everything)

    def import_events(self, file: str) -> EventsImport:
        """Restore the log ``export_events`` wrote into this empty memory, exactly."""
        return importing.import_events(self._ctx, file)

    def import_markdown(self, directory: str, *, dry_run: bool = False) -> MarkdownImport:
        """Read an (edited) Markdown export back: supersede, forget, store; reason "import"."""
        return importing.import_markdown(self._ctx, directory, dry_run=dry_run)

    # Another memory tool's data into ONE proposal of import facts (``apply``: approved at
    # once as the subject); ``progress(done, total)`` while the source is read.
    def import_memory_as_history(
        self,
        source: str,
        *,
        apply: bool = False,
        under: str | None = None,
        progress: Progress = None,
    ) -> ToolImport:
        """memory-as-history's SQLite database: memories, tiers, pins, audit, narratives."""
        return import_tools.import_tool(
            self._ctx, "memory-as-history", source, apply=apply, under=under, progress=progress
        )

    def import_basic_memory(
        self,
        source: str,
        *,
        apply: bool = False,
        under: str | None = None,
        progress: Progress = None,
    ) -> ToolImport:
        """A basic-memory project: entities, observations and relations."""
        return import_tools.import_tool(
            self._ctx, "basic-memory", source, apply=apply, under=under, progress=progress
        )

    def import_mem0(
        self,
        source: str,
        *,
        apply: bool = False,
        under: str | None = None,
        progress: Progress = None,
    ) -> ToolImport:
        """A mem0 export (the JSON of get_all): one path per user."""
        return import_tools.import_tool(
            self._ctx, "mem0", source, apply=apply, under=under, progress=progress
        )

    def import_mcp_memory(
        self,
        source: str,
        *,
        apply: bool = False,
        under: str | None = None,
        progress: Progress = None,
    ) -> ToolImport:
        """The MCP reference memory server's JSONL: entities, relations, observations."""
        return import_tools.import_tool(
            self._ctx, "mcp-memory", source, apply=apply, under=under, progress=progress
        )

    def backup(self, file: str) -> Backup:
        """A consistent copy of the whole memory in the new file ``file``, writers going on."""
        return backup.backup(self._ctx, file)

    def copy_to(
        self, target: str, *, progress: Callable[[str, int, int], None] | None = None
    ) -> Copied:
        """The whole memory into the empty ``target`` (a new file, or a PostgreSQL URL)."""
        return copying.copy_to(self._ctx, target, progress)
