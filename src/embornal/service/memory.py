"""The one application API (CLI, MCP, HTTP call nothing below it): a facade over use cases."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from embornal.domain.access.rights import (
    DELETES,
    EVENT,
    IMPORTS,
    ITEMS,
    LOCAL,
    MACHINE,
    NEW,
    OVERDUE,
    READ,
    READS,
    REQUEST,
    REWRITES,
    SCANNED,
    STORES,
    WRITES,
    need,
)
from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.events import ActorKind
from embornal.domain.facts.fact import DEFAULT_KIND, Fact
from embornal.hints import TYPE_CHECKING, Any
from embornal.lazy import Later
from embornal.service.later import declares, use_case

if TYPE_CHECKING:
    from pathlib import Path

    from embornal.adapters.config import IngestConfig
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.domain.access.rights import Need
    from embornal.domain.clock import Clock
    from embornal.domain.proposals.policy import ProposalPolicy
    from embornal.domain.recall.ranking import FusionSettings
    from embornal.domain.spine.justification import EvidenceRef, Lifetime, Visibility
    from embornal.service import admin, context, overview, recall, undo
    from embornal.service.conflicts import queue as conflicts
    from embornal.service.context import ServiceContext
    from embornal.service.facts import browse, details, kinds, lifecycle, listing, tagging
    from embornal.service.facts import rights as fact_rights
    from embornal.service.facts import writes as facts
    from embornal.service.facts.details import NewFact
    from embornal.service.facts.listing import MemoryList, MemoryMap
    from embornal.service.graph import links, merge
    from embornal.service.history import chronicle, protocol
    from embornal.service.history.chronicle import Chronicle
    from embornal.service.portability import backup, copying, export, import_tools, importing
    from embornal.service.portability.copying import Copied
    from embornal.service.portability.import_tools import Progress, ToolImport
    from embornal.service.proposals import drafts as proposals
    from embornal.service.proposals import ingest, retention
    from embornal.service.proposals.results import (
        Proposal,
    )
    from embornal.service.recall import use_case as recalling
    from embornal.service.reindex_result import ReindexResult
    from embornal.service.rerank import RerankSource
    from embornal.service.results import (
        FactDetail,
        FactView,
        PathEntry,
        RecallHit,
        TreeNode,
    )
    from embornal.service.sharing import policies as sharing
    from embornal.service.sharing.policies import IssuedToken
    from embornal.service.sharing.tokens import TokenInfo
    from embornal.service.spine import evidence as spine
    from embornal.service.spine import importance, visible
    from embornal.storage.contract.store import ListFilter, Store
else:  # off the start-up path of `memory recall` and `cat`: imported on first use
    # (the context and recall too: the remote client reads its signatures from this class)
    context = Later("embornal.service.context")
    recall = Later("embornal.service.recall")
    recalling = Later("embornal.service.recall.use_case")
    admin = Later("embornal.service.admin")
    conflicts = Later("embornal.service.conflicts.queue")
    backup = Later("embornal.service.portability.backup")
    browse = Later("embornal.service.facts.browse")  # ls, tree, cat, show, history
    copying = Later("embornal.service.portability.copying")
    chronicle = Later("embornal.service.history.chronicle")
    export = Later("embornal.service.portability.export")
    fact_rights = Later("embornal.service.facts.rights")
    importing = Later("embornal.service.portability.importing")
    import_tools = Later("embornal.service.portability.import_tools")
    facts = Later("embornal.service.facts.writes")
    importance = Later("embornal.service.spine.importance")
    kinds = Later("embornal.service.facts.kinds")
    lifecycle = Later("embornal.service.facts.lifecycle")
    ingest = Later("embornal.service.proposals.ingest")
    links = Later("embornal.service.graph.links")
    listing = Later("embornal.service.facts.listing")
    merge = Later("embornal.service.graph.merge")
    overview = Later("embornal.service.overview")
    proposals = Later("embornal.service.proposals.drafts")
    retention = Later("embornal.service.proposals.retention")
    protocol = Later("embornal.service.history.protocol")
    sharing = Later("embornal.service.sharing.policies")
    spine = Later("embornal.service.spine.evidence")
    tagging = Later("embornal.service.facts.tagging")
    details = Later("embornal.service.facts.details")
    undo = Later("embornal.service.undo")
    visible = Later("embornal.service.spine.visible")

__all__ = ["MAX_LIMIT", "Memory", "declared_rights"]
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
        ctx = context.ServiceContext.open(
            path,
            clock=clock,
            rights=declared_rights,
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

    @declares(STORES)
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

    supersede = use_case(
        lambda: facts.supersede, (need("fact_id", "write", "delete"), need(NEW, "create"))
    )

    @declares(REWRITES)
    def update(
        self, fact_id: str, attributes: Mapping[str, object | None], *, reason: str | None = None
    ) -> Fact:
        """Change some attributes of an active fact (None removes one), validated whole."""
        return kinds.update(self._ctx, fact_id, attributes, reason=reason)

    confirm = use_case(lambda: spine.confirm, WRITES)

    contradict = use_case(lambda: spine.contradict, (need("fact_id", "write"), need("by", "read")))

    add_evidence = use_case(lambda: spine.add_evidence, WRITES)

    @declares(REWRITES)
    def set_visibility(
        self, fact_id: str, visibility: Visibility | str, *, reason: str | None = None
    ) -> Fact:
        """Who may see a fact the subject owns: shared, private, restricted:a,b."""
        return visible.set_visibility(self._ctx, fact_id, visibility, reason=reason)

    pin = use_case(lambda: importance.pin, WRITES)

    unpin = use_case(lambda: importance.unpin, REWRITES)

    set_weight = use_case(lambda: importance.set_weight, WRITES)

    set_lifetime = use_case(lambda: importance.set_lifetime, REWRITES)

    due = use_case(lambda: importance.due, READS)

    conflicts = use_case(lambda: conflicts.conflicts, READS)

    conflict = use_case(lambda: conflicts.conflict, READS)

    resolve_conflict = use_case(
        lambda: conflicts.resolve_conflict,
        (
            need("the conflict's memories", "write"),
            need("a memory the resolution archives", "delete"),
        ),
    )

    scan_conflicts = use_case(lambda: conflicts.scan_conflicts, (need(SCANNED, "read", "write"),))

    # -- the history protocol (docs/model.md; service.protocol) ----------------------------

    remember = use_case(lambda: protocol.remember, STORES)

    promote = use_case(lambda: protocol.promote, WRITES)

    corroborate = use_case(lambda: protocol.corroborate, WRITES)

    provenance = use_case(lambda: protocol.provenance, READS)

    memory_status = use_case(lambda: protocol.memory_status, READS)

    review = use_case(lambda: protocol.review, WRITES)

    flag_sensitive = use_case(lambda: protocol.flag_sensitive, REWRITES)

    due_for_consolidation = use_case(lambda: protocol.due_for_consolidation, READS)

    due_for_review = use_case(
        lambda: protocol.due_for_review, (need(READ, "read"), need(OVERDUE, "write"))
    )

    list_forgotten = use_case(lambda: protocol.list_forgotten, READS)

    forget = use_case(lambda: lifecycle.forget, DELETES)

    restore = use_case(lambda: lifecycle.restore, DELETES)

    purge = use_case(lambda: lifecycle.purge, (need("fact_id", "delete"), need(MACHINE)))

    undo = use_case(lambda: undo.undo, (need(EVENT, "as the event"),))

    # -- the graph (service.links, service.merge) ------------------------------------------

    link = use_case(lambda: links.link, (need("source", "write"), need("target", "read")))

    unlink = use_case(lambda: links.unlink, (need("source", "write"), need("target", "read")))

    links = use_case(lambda: links.links, READS)

    dangling_links = use_case(lambda: links.dangling, (need(READ, "read"), need(MACHINE)))

    @declares((need("survivor", "write", "delete"), need("source", "delete")))
    def merge(self, survivor: str, source: str, *, reason: str) -> Fact:
        """Merge ``source`` into ``survivor``: aliases and evidence absorbed, source archived."""
        return merge.merge(self._ctx, survivor, source, reason)

    # -- proposals and retention (service.proposals, service.retention) -------------------

    @declares(REQUEST)
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

    ingest = use_case(lambda: ingest.ingest, REQUEST)

    proposals = use_case(lambda: proposals.list_proposals, READS)

    proposal = use_case(lambda: proposals.show, READS)

    approve = use_case(
        lambda: proposals.approve,
        (need("the deciding subject", "a person"), need(ITEMS, "as each item")),
    )

    may_decide_proposals = use_case(lambda: proposals.may_decide)

    def permitted(self, fact_id: str | None = None) -> frozenset[str]:
        """The corrections the subject may make on ``fact_id`` (or ``{"store"}`` without one)."""
        return fact_rights.permitted(self._ctx, fact_id)

    reject = use_case(lambda: proposals.reject, (need("the deciding subject", "a person"),))

    @declares((need("the proposal", "its proposer or a person"),))
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

    retention = use_case(lambda: retention.retention, READS)

    prune = use_case(
        lambda: retention.prune, (need(READ, "read"), need("each pruned fact", "delete"))
    )

    # -- reading (service.recall, service.browse) -------------------------------------------

    @declares(READS)
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

    @declares(READS)
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

    kinds = use_case(lambda: kinds.kinds, READS)

    similar = use_case(lambda: recalling.similar, READS)

    @declares(READS)
    def ls(self, path: str = "/", *, as_of: AsOf = None, all: bool = False) -> list[PathEntry]:
        """One level below ``path``: each child with its own fact count and child count;
        ``all``: the guide under ``/memory`` too (shown anyway when ``path`` is in it)."""
        return browse.ls(self._ctx, path, as_of, guide=all)

    @declares(READS)
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

    @declares(READS)
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

    @declares(READS)
    def show(self, fact_id: str, *, as_of: AsOf = None) -> FactDetail:
        """One fact whole; ``as_of`` (also of recall, find, ls, tree, cat): as it was then."""
        return browse.show(self._ctx, fact_id, as_of)

    spine_series = use_case(lambda: browse.spine_series)

    history = use_case(lambda: browse.history, READS)

    tag_path = use_case(lambda: tagging.tag_path, IMPORTS)

    untag_path = use_case(lambda: tagging.untag_path, IMPORTS)

    path_tags = use_case(lambda: tagging.path_tags, LOCAL)

    policies = use_case(lambda: sharing.policies, LOCAL)

    policy_add = use_case(lambda: sharing.policy_add, LOCAL)

    narrow_token_rules = use_case(lambda: sharing.narrow_token_rules, LOCAL)

    policy_remove = use_case(lambda: sharing.policy_remove, LOCAL)

    policy_check = use_case(lambda: sharing.policy_check, LOCAL)

    @declares(LOCAL)
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

    @declares(LOCAL)
    def tokens(self, *, include_inactive: bool = False) -> list[TokenInfo]:
        """The tokens issued (active ones only, unless ``include_inactive``)."""
        return sharing.tokens(self._ctx, include_inactive=include_inactive)

    token_revoke = use_case(lambda: sharing.token_revoke, LOCAL)

    authenticate = use_case(lambda: sharing.authenticate)

    token_of = use_case(lambda: sharing.token_of)

    def rebuild(self, *, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Replay the log into fresh projections, swap them in; return the events replayed."""
        return admin.rebuild(self._ctx, progress)

    verify = use_case(lambda: admin.verify)

    @declares(LOCAL)
    def reindex(
        self,
        *,
        limit: int | None = None,
        everything: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReindexResult:
        """Give a vector to each fact waiting for one; ``everything`` re-embeds all facts."""
        return admin.reindex(self._ctx, limit=limit, everything=everything, progress=progress)

    pending_embeddings = use_case(lambda: admin.pending_embeddings)

    overview = use_case(lambda: overview.overview)

    keyword_probe = use_case(lambda: overview.keyword_probe)

    # -- moving a memory whole (service.export, service.importing, service.backup) ---------

    export_events = use_case(lambda: export.export_events, LOCAL)

    export_markdown = use_case(lambda: export.export_markdown, LOCAL)

    import_events = use_case(lambda: importing.import_events, LOCAL)

    import_markdown = use_case(lambda: importing.import_markdown, LOCAL)

    # Another memory tool's data into ONE proposal of import facts (``apply``: approved at
    # once as the subject); ``progress(done, total)`` while the source is read.
    @declares(IMPORTS)
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

    @declares(IMPORTS)
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

    @declares(IMPORTS)
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

    @declares(IMPORTS)
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

    backup = use_case(lambda: backup.backup, LOCAL)

    @declares(LOCAL)
    def copy_to(
        self, target: str, *, progress: Callable[[str, int, int], None] | None = None
    ) -> Copied:
        """The whole memory into the empty ``target`` (a new file, or a PostgreSQL URL)."""
        return copying.copy_to(self._ctx, target, progress)


def declared_rights(call: str) -> tuple[Need, ...]:
    """What the operation of ``call`` needs on what, as its method declares it: ``"forget"``
    (a method of :class:`Memory`) or ``"chronicle.canonize"`` (of
    :class:`~embornal.service.history.chronicle.Chronicle`). KeyError: no such operation."""
    from embornal.service import rights

    facade, _, name = call.rpartition(".")
    if facade == "chronicle":
        return rights.of(chronicle.Chronicle, name)
    if facade:
        raise KeyError(f"no facade {facade!r}")
    return rights.of(Memory, name)
