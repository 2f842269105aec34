"""The one application API (CLI, MCP and HTTP call nothing below it): a facade that
holds one :class:`~embornal.service.context.ServiceContext` and hands it to use cases."""

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
from embornal.service import browse, recall
from embornal.service.context import ServiceContext
from embornal.service.later import Later
from embornal.service.results import (
    FactDetail,
    FactView,
    NewFact,
    PathEntry,
    PurgeResult,
    RecallHit,
    TreeNode,
)
from embornal.storage.contract import Store

if TYPE_CHECKING:
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.domain.spine import EvidenceRef
    from embornal.service import admin, facts, kinds, lifecycle, sharing, spine, tagging, undo
    from embornal.service.access import TokenInfo
    from embornal.service.semantic import ReindexResult
    from embornal.service.sharing import IssuedToken, PolicyCheck
else:  # off the start-up path of `memory recall` and `cat`: imported on first use
    admin = Later("embornal.service.admin")
    facts = Later("embornal.service.facts")
    kinds = Later("embornal.service.kinds")
    lifecycle = Later("embornal.service.lifecycle")
    sharing = Later("embornal.service.sharing")
    spine = Later("embornal.service.spine")
    tagging = Later("embornal.service.tagging")
    undo = Later("embornal.service.undo")

__all__ = ["MAX_LIMIT", "Memory"]


class Memory:
    """A memory as ``subject`` sees it: every read filtered, every write checked."""

    def __init__(self, context: ServiceContext) -> None:
        """A memory over ``context``; :meth:`open` makes one from a path."""
        self._ctx = context

    # -- life cycle -------------------------------------------------------------------

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
    ) -> Memory:
        """Open (creating 0700/0600 and migrating as needed) the memory at ``path`` (None:
        the platform's data directory). ``embedder`` turns on recall by meaning;
        ``vector_width`` (default: the embedder's) must match on every later open."""
        return cls(
            ServiceContext.open(
                path,
                clock=clock,
                subject=subject,
                actor_kind=actor_kind,
                default_limit=default_limit,
                embedder=embedder,
                vector_width=vector_width,
                fusion=fusion,
            )
        )

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
    def migrations_applied(self) -> list[str]:
        """The migrations that opening this memory applied (empty: it was up to date)."""
        return list(self._ctx.store.migrations_applied)

    @property
    def _store(self) -> Store:  # for tests and benchmarks that inspect the storage
        return self._ctx.store

    # -- writing (service.facts, service.lifecycle) -----------------------------------------

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
    ) -> Fact:
        """Store one fact on ``path``; ``at`` dates it (imports). ``kind`` (immutable),
        ``attributes`` and ``confidence`` (0..1; None: the actor kind's prior) are checked:
        a bad one writes nothing. A ``fact``'s statement is its content unless given."""
        return facts.store(
            self._ctx, NewFact(path, content, tags, at, kind, attributes, confidence), reason=reason
        )

    def store_many(self, items: Sequence[NewFact], *, reason: str | None = None) -> list[Fact]:
        """Store many facts in one transaction: all of them, or none."""
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
        """Correct a fact: a new fact on the same path points at the old one. It keeps the
        old kind and attributes unless given; another ``kind`` corrects a misclassified fact."""
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

    # -- reading (service.recall, service.browse) -------------------------------------------

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        under: str | None = None,
        reinforce: bool = True,
        mode: str = "auto",
    ) -> list[RecallHit]:
        """Find live facts by keyword, meaning or both (``mode``: keyword, vector, hybrid,
        auto); no query: the strongest. Each hit lifts its strength unless not ``reinforce``."""
        return recall.recall(
            self._ctx, query, limit=limit, under=under, reinforce=reinforce, mode=mode
        )

    def find(
        self,
        kind: str,
        where: Mapping[str, str] | Sequence[str] = (),
        *,
        under: str | None = None,
        limit: int | None = None,
    ) -> list[Fact]:
        """The live facts of ``kind`` whose attributes equal ``where`` (``{"status":
        "active"}`` or ``["status=active"]``, values typed as the kind says), oldest first."""
        return kinds.find(self._ctx, kind, where, under=under, limit=limit)

    def kinds(self) -> list[dict[str, Any]]:
        """Every kind's schema: fields, types, vocabularies, required fields, rules."""
        return kinds.kinds(self._ctx)

    def ls(self, path: str = "/") -> list[PathEntry]:
        """One level below ``path``: each child with its own fact count and child count."""
        return browse.ls(self._ctx, path)

    def tree(self, path: str = "/", *, dirs_only: bool = False) -> TreeNode:
        """The whole tree below ``path``; ``dirs_only`` keeps the paths that hold paths."""
        return browse.tree(self._ctx, path, dirs_only=dirs_only)

    def cat(
        self,
        path: str,
        *,
        limit: int | None = None,
        order_by: str = "date",
        recall: bool = False,
    ) -> list[FactView]:
        """A path's facts, oldest (``date``) or strongest (``signal``) first."""
        return browse.cat(self._ctx, path, limit=limit, order_by=order_by, recall=recall)

    def show(self, fact_id: str) -> FactDetail:
        """One fact whole: state, strength, tags and sources, links, events, its spine."""
        return browse.show(self._ctx, fact_id)

    def history(self, target: str) -> list[Event]:
        """The events of a fact (id or prefix; with its supersession chain) or of a path."""
        return browse.history(self._ctx, target)

    # -- path tags (service.tagging) --------------------------------------------------------

    def tag_path(self, path: str, tags: Sequence[str] | Mapping[str, str]) -> list[Tag]:
        """Put tags on a path; the subject's facts below inherit them (their own tags win)."""
        return tagging.tag_path(self._ctx, path, tags)

    def untag_path(self, path: str, keys: Sequence[str]) -> None:
        """Take the subject's tags of these keys off a path (others' stay)."""
        return tagging.untag_path(self._ctx, path, keys)

    # -- policies and tokens (service.sharing) ----------------------------------------------

    def policies(self) -> list[Rule]:
        """Every rule of ``casbin_rule``."""
        return sharing.policies(self._ctx)

    def policy_add(self, ptype: str, values: Sequence[str]) -> Rule:
        """Add one rule (``p`` or ``g``); refused if it exists or makes too deep a role chain."""
        return sharing.policy_add(self._ctx, ptype, values)

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
    ) -> IssuedToken:
        """Issue a token for ``subject`` (shown once) and, unless ``rules=False``, its rules."""
        return sharing.token_add(
            self._ctx, subject, name=name, expires_in_days=expires_in_days, rules=rules
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

    # -- admin (service.admin) --------------------------------------------------------------

    def rebuild(self, *, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Replay the event log into fresh projections and swap them in; return the number
        of events. Writers and readers go on meanwhile; ``progress(step, done, total)``."""
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
        """How many live facts (or long facts' pieces) wait for a vector; see reindex."""
        return admin.pending_embeddings(self._ctx)
