"""The context every use case runs in: one memory, as one subject sees it.

A :class:`ServiceContext` holds the store (the storage contract: unit of work, event
store, reads, search, vectors), the clock, who acts (subject and actor kind), their
access rules, the settings (default limit, fusion) and the embedder (``semantic``).
The use-case modules (:mod:`~embornal.service.facts.writes`,
:mod:`~embornal.service.facts.lifecycle`,
:mod:`~embornal.service.facts.browse`, :mod:`~embornal.service.recall`,
:mod:`~embornal.service.sharing.policies`, :mod:`~embornal.service.facts.tagging`,
:mod:`~embornal.service.admin`) are functions of it; :class:`embornal.Memory` is a facade
that holds one and delegates to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from embornal.domain.access.rights import LEDGER, needs_on
from embornal.domain.access.scope import ReadScope
from embornal.domain.bounds import MAX_LIMIT, whole_in_range
from embornal.domain.clock import Clock, SystemClock
from embornal.domain.events import ActorKind, DomainEvent, Event, NewEvent
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import check_subject
from embornal.domain.guide import without_guide
from embornal.domain.ids import normalize_prefix
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.domain.recall.ranking import FusionSettings
from embornal.domain.records import record
from embornal.errors import AccessDenied, AmbiguousId, InvalidInput, NotFound
from embornal.hints import TYPE_CHECKING
from embornal.service.access import Access
from embornal.service.rerank import Reranking, RerankSource
from embornal.service.semantic import Semantic
from embornal.storage.factory import backend_of, open_store

if TYPE_CHECKING:
    from pathlib import Path

    from embornal.adapters.config import IngestConfig
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.domain.access.rights import Need
    from embornal.storage.contract.store import Store

__all__ = ["ServiceContext", "check_limit", "single_match", "visible_matches"]


def check_limit(limit: int | None, default: int) -> int:
    """``limit``, or ``default`` when None; refused outside 1..MAX_LIMIT."""
    if limit is None:
        return default
    if not whole_in_range(limit, 1, MAX_LIMIT):
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    return limit


_PREFIX_PAGE = 100


def visible_matches(
    page: Callable[[str | None, int], list[str]], visible: Callable[[str], bool]
) -> list[str]:
    """Up to two ids of a prefix that the subject may see, in order: ``page(after, n)``
    gives the next ``n`` ids of the prefix after ``after``. The others are passed over, so
    no answer (``ambiguous``, not found) tells of an id the subject may not see."""
    found: list[str] = []
    after: str | None = None
    while True:
        ids = page(after, _PREFIX_PAGE)
        for i in ids:
            if visible(i):
                found.append(i)
                if len(found) == 2:
                    return found
        if len(ids) < _PREFIX_PAGE:
            return found
        after = ids[-1]


def single_match(ids: Sequence[str], noun: str, prefix: str, given: str, hint: str) -> str:
    """The one id :func:`visible_matches` found for the ``noun``'s id ``given`` (``prefix``
    normalized); an :class:`AmbiguousId` for two, a :class:`NotFound` (``hint``) for none."""
    if len(ids) > 1:
        raise AmbiguousId(f"{noun} id prefix {prefix} matches more than one {noun}")
    if not ids:
        raise NotFound(f"no {noun} with id {given}", hint=hint)
    return ids[0]


@record
class ServiceContext:
    """One memory as one subject meets it; shared by every use case of a :class:`Memory`."""

    store: Store
    clock: Clock
    subject: str
    actor_kind: ActorKind
    access: Access
    semantic: Semantic
    default_limit: int
    fusion: FusionSettings
    rights: Callable[[str], tuple[Need, ...]]
    """What an operation needs on what, by its facade method's name (``"forget"``,
    ``"chronicle.canonize"``): the declarations of the facade that opened the memory
    (decision 0179)."""
    proposals: ProposalPolicy = ProposalPolicy()
    ingest: IngestConfig | None = None  # the model of `ingest --extractor llm` (config.yaml)
    reranking: Reranking = Reranking()  # the cross-encoder of `recall --rerank` (0115)

    @classmethod
    def create(
        cls,
        store: Store,
        *,
        clock: Clock,
        rights: Callable[[str], tuple[Need, ...]],
        subject: str = "default",
        actor_kind: ActorKind = ActorKind.PERSON,
        default_limit: int = 10,
        semantic: Semantic | None = None,
        fusion: FusionSettings | None = None,
        proposals: ProposalPolicy | None = None,
        ingest: IngestConfig | None = None,
        reranker: RerankSource | Reranking = None,
    ) -> ServiceContext:
        name = check_subject(subject)
        return cls(
            store=store,
            clock=clock,
            subject=name,
            actor_kind=actor_kind,
            access=Access(store, name, actor_kind),
            semantic=semantic or Semantic(store, None),
            default_limit=default_limit,
            fusion=fusion or FusionSettings(),
            rights=rights,
            proposals=proposals or ProposalPolicy(),
            ingest=ingest,
            reranking=reranker if isinstance(reranker, Reranking) else Reranking(reranker),
        )

    @classmethod
    def open(
        cls,
        path: str | Path | None,
        *,
        clock: Clock | None,
        rights: Callable[[str], tuple[Need, ...]],
        subject: str,
        actor_kind: ActorKind | str,
        default_limit: int,
        embedder: EmbeddingProvider | None,
        vector_width: int | None,
        fusion: FusionSettings | None,
        seed: bool = True,
        proposals: ProposalPolicy | None = None,
        ingest: IngestConfig | None = None,
        reranker: RerankSource = None,
    ) -> ServiceContext:
        """Open the store at ``path`` (None: the platform's data directory) and set up
        its vectors; the store is closed again if that fails. ``seed=False``: a memory
        created now starts with an empty log (see ``import_events``)."""
        from embornal.adapters.dirs import expand_user

        if path is None:
            from embornal.adapters.dirs import default_dirs, ensure_dir

            dirs = default_dirs()
            ensure_dir(dirs.data_dir)
            path = dirs.db_file
        the_clock = clock or SystemClock()
        # A file (expanded, as text) or ":memory:"; a URL (postgresql://…) goes to the factory
        # whole.
        local = str(path) == ":memory:" or backend_of(path) != "sqlite"
        where = path if local else expand_user(str(path))
        store = open_store(where, the_clock, seed=seed)
        semantic = Semantic(store, embedder)
        try:
            semantic.setup(vector_width)
        except BaseException:
            store.close()
            raise
        return cls.create(
            store,
            clock=the_clock,
            rights=rights,
            subject=subject,
            actor_kind=ActorKind(actor_kind),
            default_limit=default_limit,
            semantic=semantic,
            fusion=fusion,
            proposals=proposals,
            ingest=ingest,
            reranker=reranker,
        )

    def as_subject(self, subject: str, actor_kind: ActorKind | str | None = None) -> ServiceContext:
        """The same store, embedder and settings, seen by ``subject`` (its own access)."""
        return ServiceContext.create(
            self.store,
            clock=self.clock,
            rights=self.rights,
            subject=subject,
            actor_kind=ActorKind(actor_kind) if actor_kind else self.actor_kind,
            default_limit=self.default_limit,
            semantic=self.semantic,
            fusion=self.fusion,
            proposals=self.proposals,
            ingest=self.ingest,
            reranker=self.reranking,
        )

    # -- helpers every use case needs ------------------------------------------------------

    def now(self) -> datetime:
        return self.clock.now()

    def scope(self, *, guide: bool = True) -> ReadScope:
        """What the subject may read (the store compiles it into its own filter);
        ``guide=False``: less the memory's guide under ``/memory`` (decision 0154)."""
        scope = self.access.read_filter()
        return scope if guide else without_guide(scope)

    def event(
        self,
        stream_id: str,
        body: DomainEvent,
        reason: str | None = None,
        expected_version: int | None = None,
    ) -> NewEvent:
        """The envelope of ``body``: who acts, as what, when, and why."""
        return NewEvent(
            stream_id=stream_id,
            body=body,
            actor=self.subject,
            actor_kind=self.actor_kind,
            recorded_at=self.clock.now(),
            reason=reason,
            expected_version=expected_version,
        )

    def append(self, doing: str, events: Sequence[NewEvent]) -> list[Event]:
        """Append ``events`` in one transaction (with their projections)."""
        with self.store.transaction(doing) as tx:
            return self.store.append(tx, events)

    def resolve(self, fact_id: str) -> Fact:
        """The fact of an id or unique prefix, among those the subject may read."""
        full = self.store.resolve_id(normalize_prefix(fact_id), self.scope())
        fact = self.store.get_fact(full, self.scope())
        if fact is None:  # pragma: no cover - resolve_id applied the same filter
            raise NotFound(f"no fact with id {fact_id}")
        return fact

    def needs(self, operation: str, role: str) -> tuple[str, ...]:
        """The actions ``operation`` (its facade method's name) declares on ``role``."""
        return needs_on(self.rights(operation), operation, role)

    def target(self, operation: str, ref: str, role: str = "fact_id") -> Fact:
        """The fact ``ref`` names (an id or prefix the subject may read), once the subject
        holds the actions ``operation`` (its facade method's name) declares on ``role``."""
        fact = self.resolve(ref)
        self.check(operation, role, fact)
        return fact

    def may(self, operation: str, role: str, fact: Fact) -> bool:
        """Whether the subject holds, on ``fact``, what ``operation`` declares on ``role``."""
        obj = self.access.fact_object(fact)
        return all(self.access.may(a, obj) for a in self.needs(operation, role) if a != "read")

    def require_some(self, action: str, doing: str) -> None:
        """:class:`AccessDenied` unless some rule lets the subject ``action`` somewhere."""
        if not self.access.holds(action):
            raise AccessDenied(
                f"subject {self.subject} may not {action} anywhere ({doing})",
                hint="Ask the owner of the memory for a policy (`embornal policy add`).",
            )

    def check(self, operation: str, role: str, fact: Fact) -> None:
        """:class:`AccessDenied` unless the subject holds, on ``fact``, what ``operation``
        declares on ``role`` (its facade method's declaration, decision 0179)."""
        actions = [a for a in self.needs(operation, role) if a != "read"]  # resolve read it
        if not actions:
            return
        obj = self.access.fact_object(fact)
        for action in actions:
            self.access.require(action, obj, why=f"{_shown(operation)} needs {action} on {fact.id}")

    def check_ledger(self, operation: str, path: str) -> None:
        """:class:`AccessDenied` unless the subject holds what ``operation`` declares on the
        ledger: an entry at ``path`` as the subject's own (a read-only subject writes none)."""
        obj = self.access.new_fact_object(path, {"owner": self.subject})
        for action in self.needs(operation, LEDGER):
            self.access.require(action, obj, why=f"{_shown(operation)} needs {action} on {path}")

    def require_to_rewrite(self, fact: Fact, why: str) -> None:
        """Changing what a fact says (supersede, update) takes write on it and the right
        forget takes, since the old words leave recall (decision 0030); ``why`` is the
        phrase the refusal gives for it."""
        obj = self.access.fact_object(fact)
        self.access.require("write", obj, why=why)
        self.access.require("delete", obj, why=why)

    def reload(self, fact_id: str) -> Fact:
        """A fact the subject may read, as the projection now holds it."""
        fact = self.store.get_fact(fact_id, self.scope())
        assert fact is not None
        return fact


def _shown(call: str) -> str:
    """The operation's name in a refusal: its method, less the facade's prefix."""
    return call.rpartition(".")[2]
