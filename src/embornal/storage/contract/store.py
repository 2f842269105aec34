"""The storage contract: what the service asks of a backend, and nothing more.

The service holds a :class:`Store` and knows no SQL, connection or driver. Writes run in
a unit of work (:meth:`UnitOfWork.transaction`) that yields an opaque :class:`Tx`; the
service passes it back to :meth:`EventStore.append` (which writes the events and their
projections in that one transaction) and to the vector writes. Every read takes a
:class:`~embornal.domain.access.scope.ReadScope`, which the backend compiles into its own
filter: a fact out of scope is absent, never "hidden".

SQLite (:mod:`embornal.storage.sqlite.store`) and PostgreSQL (:mod:`embornal.storage.postgres`)
pass the contract suite in ``tests/storage``; :func:`embornal.storage.factory.open_store`.

Vectors travel as float32 bytes (:func:`pack_vector`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from embornal.domain.access.rules import Rule
from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.events import Event, NewEvent
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import Tag
from embornal.domain.records import record
from embornal.lazy import exports
from embornal.storage.contract.copy import CopyReads, FactVector, Portability, Redaction, Snapshot
from embornal.storage.contract.parts import StoreParts, names
from embornal.storage.contract.rows import PathRow, SpineRow, pack_vector

if TYPE_CHECKING:  # only the signature names it; writes import the aggregate
    from embornal.domain.facts.aggregate import FactState
    from embornal.domain.facts.attributes import Condition
    from embornal.domain.spine.justification import EvidenceRef
    from embornal.storage.contract.claims import ClaimReads, ClaimRow
    from embornal.storage.contract.listing import (
        LIST_SORTS,
        LinkMap,
        ListFilter,
        ListingReads,
        ListPage,
        ListRow,
    )
    from embornal.storage.contract.narratives import NarrativeReads, NarrativeRow
    from embornal.storage.contract.review import (
        CanonReads,
        CanonRow,
        ConflictReads,
        LabelCount,
        ProposalReads,
        ProposalRow,
        RetentionRow,
    )
    from embornal.storage.contract.timeline import TimelineReads, TimelineRow
else:  # a part's name: its module imported when it is first read
    __getattr__, __dir__ = exports(__name__, names)


__all__ = [
    "EVERYTHING",
    "LIST_SORTS",
    "AccessStore",
    "Admin",
    "CanonReads",
    "CanonRow",
    "ClaimReads",
    "ClaimRow",
    "ConflictReads",
    "CopyReads",
    "EventStore",
    "FactReads",
    "FactVector",
    "ForgottenRow",
    "GraphReads",
    "HistoryQueries",
    "KeywordSearch",
    "KindQueries",
    "LabelCount",
    "LinkMap",
    "ListFilter",
    "ListPage",
    "ListRow",
    "ListingReads",
    "NarrativeReads",
    "NarrativeRow",
    "PastReads",
    "PathReads",
    "PathRow",
    "Portability",
    "ProposalReads",
    "ProposalRow",
    "ProtocolRow",
    "RebuildProgress",
    "Redaction",
    "RetentionRow",
    "Snapshot",
    "SpineRow",
    "Store",
    "TimeTravel",
    "TimelineReads",
    "TimelineRow",
    "Tx",
    "UnitOfWork",
    "VectorSearch",
    "VectorStore",
    "pack_vector",
]

RebuildProgress = Callable[[str, int, int], None]  # (step, done, total)


@record
class ProtocolRow:
    """A memory of a history protocol list: the fact, its stage, tier and sensitivity,
    and the time the list is ordered by (its capture; for a review, its last review)."""

    fact: Fact
    stage: str
    tier: str
    sensitive: bool
    since: datetime


@record
class ForgottenRow:
    """A forgotten memory and the reason, time and actor of the forget that took it out."""

    fact: Fact
    forgotten_at: datetime
    reason: str | None
    actor: str


class Tx(Protocol):
    """An open unit of work. Opaque: only the store that opened it looks inside."""


@runtime_checkable
class UnitOfWork(Protocol):
    def transaction(self, doing: str = "writing") -> AbstractContextManager[Tx]:
        """One write transaction: everything written with its handle commits together,
        or (when the block raises) none of it. ``doing`` names it in errors."""
        ...


@runtime_checkable
class EventStore(Protocol):
    def append(
        self, tx: Tx, events: Sequence[NewEvent], *, expected_version: int | None = None
    ) -> list[Event]:
        """Append ``events`` in ``tx`` and apply their projections; each gets the next
        position and the next version of its stream. With ``expected_version``, the events
        all belong to one stream, which must be at that version (0: new), else
        :class:`~embornal.errors.ConcurrencyError` and nothing is written."""
        ...

    def read_stream(self, stream_id: str) -> list[Event]:
        """The events of one stream, by version."""
        ...

    def stream(self, stream_id: str) -> list[Event]:
        """The same as :meth:`read_stream` (the service's older name)."""
        ...

    def read_all(self, *, after: int = 0, until: int | None = None) -> Iterator[Event]:
        """Every event in log order, positions above ``after`` up to ``until``."""
        ...

    def redact_stream(self, tx: Tx, stream_id: str, purge_position: int) -> int:
        """In a purge's ``tx``: erase the user text of the stream's events before
        ``purge_position``; return how many were redacted."""
        ...


@runtime_checkable
class FactReads(Protocol):
    def resolve_id(self, prefix: str, scope: ReadScope = EVERYTHING) -> str:
        """The one fact in scope whose id starts with ``prefix`` (upper-cased)."""
        ...

    def get_fact(self, fact_id: str, scope: ReadScope = EVERYTHING) -> Fact | None: ...

    def get_facts(self, fact_ids: Sequence[str], scope: ReadScope = EVERYTHING) -> list[Fact]:
        """The facts in scope among ``fact_ids``, in that order."""
        ...

    def facts_at(
        self, path: str, scope: ReadScope = EVERYTHING, *, include_inactive: bool = False
    ) -> list[Fact]:
        """The facts of one path, oldest first (live ones unless ``include_inactive``)."""
        ...

    def strongest(
        self, limit: int, now: str, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[Fact]:
        """Live facts by strength at ``now``, strongest first."""
        ...

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The live facts 1..``reach`` places before and after each fact on its path,
        places counted over the facts in scope."""
        ...

    def recall_times(self, fact_id: str) -> list[datetime]:
        """When each recall that returned the fact happened (the ``at`` of each
        ``FactsRecalled`` naming it), in log order (``recalls_of``: their events, the newest
        ``limit`` first, decision 0160); the caller has resolved the fact in its scope."""
        ...

    def recalls_of(self, fact_id: str, *, limit: int) -> list[Event]: ...

    def effective_tags(self, fact_id: str) -> list[tuple[Tag, str | None]]:
        """The tags that decide access, each with the path it came from (None: the fact)."""
        ...

    def spine_rows(
        self, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[SpineRow]:
        """The staleness inputs of every live fact in scope (at or below ``under``)."""
        ...

    def fact_state(self, fact_id: str) -> FactState | None:
        """The fact aggregate's state folded from its stream, at the stream's version, with
        the live fact that supersedes it (None: no such fact). Inside a unit of work: as of
        it."""
        ...


@runtime_checkable
class KindQueries(Protocol):
    def find_by_kind(
        self,
        kind: str,
        conditions: Sequence[Condition],
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        limit: int = 1000,
    ) -> list[Fact]:
        """The live facts in scope of ``kind`` (a registered kind) whose attributes meet
        every condition (equality; a list field holds the item; None: no value), at or
        below ``under``, oldest first (``created_at``, then id), at most ``limit``."""
        ...


@runtime_checkable
class GraphReads(Protocol):
    """The typed links and merges (decision 0052): raw rows, the caller applies its scope
    to the facts they name (a link of a fact out of scope is never shown)."""

    def link_rows(
        self, fact_ids: Sequence[str], direction: str, relation: str | None = None
    ) -> list[tuple[str, str, str]]:
        """``(source, relation, target)`` of the links leaving (``out``), reaching (``in``)
        or touching (``both``) ``fact_ids``, of ``relation`` (None: any), by position."""
        ...

    def link_events(self, fact_id: str) -> list[Event]:
        """The ``FactLinked``/``FactUnlinked`` events of the links leaving or reaching
        ``fact_id``, by position (the retracted links' history too)."""
        ...

    def merged_into(self, fact_ids: Sequence[str]) -> dict[str, str]:
        """The survivor of each merged (and not restored) fact among ``fact_ids``."""
        ...

    def merged_sources(self, survivor_ids: Sequence[str]) -> dict[str, list[str]]:
        """The merged (and not restored) facts of each survivor among ``survivor_ids``."""
        ...

    def dangling_rows(self, scope: ReadScope = EVERYTHING, limit: int = 100) -> list[Any]:
        """``(source, relation, target, target state)`` of the links from facts in scope
        whose target is forgotten, purged or missing (not merged), by position."""
        ...

    def relationship_ids(self, fact_ids: Sequence[str]) -> list[str]:
        """The ``relationship`` facts naming one of ``fact_ids`` as subject or object."""
        ...


@runtime_checkable
class PathReads(Protocol):
    def subtree(self, path: str, scope: ReadScope = EVERYTHING) -> list[PathRow]:
        """Every path at or below ``path`` holding a live fact in scope, or leading to one."""
        ...

    def inherited_path_tags(self, ancestors: Sequence[str], owner: str) -> dict[str, str]:
        """The tags a fact of ``owner`` at the last of ``ancestors`` would inherit."""
        ...


@runtime_checkable
class KeywordSearch(Protocol):
    def keyword_search(
        self,
        terms: list[str],
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
        include_superseded: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Facts in scope matching any of ``terms``, best first, with their bm25 value
        (lower is better; its statistics span every fact)."""
        ...

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        """How many facts hold each indexed term."""
        ...

    def doc_count(self) -> int:
        """How many facts the keyword index holds."""
        ...


@runtime_checkable
class VectorSearch(Protocol):
    def vector_search(
        self,
        query: bytes,
        candidates: int,
        scope: ReadScope = EVERYTHING,
        *,
        under: str | None = None,
    ) -> list[tuple[Fact, float]]:
        """Live facts in scope nearest to ``query``, best first, with their similarity."""
        ...

    def has_vector_index(self) -> bool:
        """Whether the backend can search by vector at all."""
        ...

    def reads_aside(self) -> bool:
        """Whether a read made now on another thread sees what this thread would read
        (False inside a write transaction, or on one connection shared by every thread):
        then hybrid recall runs its keyword and vector parts side by side."""
        ...


@runtime_checkable
class VectorStore(VectorSearch, Protocol):
    def prepare_vectors(self, width: int) -> bool:
        """Record the vector width (or stop on a different one) and create the vector
        index; False when the backend has no vector support."""
        ...

    def vector_model(self) -> str | None:
        """The identity of the model the stored vectors come from (None: none yet)."""
        ...

    def write_vectors(self, tx: Tx, items: Sequence[FactVector], *, model: str) -> None:
        """In ``tx``: give these facts their vectors (``model`` made them), replacing
        their pieces' vectors."""
        ...

    def clear_vectors(self, tx: Tx, *, model: str, width: int | None = None) -> None:
        """In ``tx``: drop every vector; the next ones will come from ``model``. With
        ``width``, the vector index is made again at that width (a model of another
        width: ``reindex --all``)."""
        ...

    def pending_vectors(self, limit: int) -> list[tuple[str, str]]:
        """``(fact id, content)`` of live facts that wait for a vector, oldest first."""
        ...

    def pending_vector_count(self) -> int: ...


@runtime_checkable
class AccessStore(Protocol):
    def rules(self) -> list[Rule]:
        """Every policy and grouping rule."""
        ...

    def policy_version(self) -> int:
        """A number that changes whenever the rules change."""
        ...

    def token_by_hash(self, token_hash: str) -> Mapping[str, Any] | None:
        """The token with this hash: id, subject, name, created_at, expires_at, revoked_at."""
        ...

    def tokens(self, *, include_inactive: bool) -> list[Mapping[str, Any]]: ...


@runtime_checkable
class Admin(Protocol):
    def rebuild(self, progress: RebuildProgress | None = None) -> int:
        """Replay the log into fresh projections; return how many events were replayed."""
        ...

    def verify(self) -> list[str]:
        """Differences between the projections and a replay of the log (empty: equal)."""
        ...

    def erase_in_transaction(self, tx: Tx) -> None:
        """In a purge's ``tx``: make the erased text leave every index."""
        ...

    def compact_after_purge(self) -> bool:
        """After a purge: make the erased bytes leave the disk; True when complete."""
        ...


@runtime_checkable
class PastReads(KindQueries, KeywordSearch, VectorSearch, Protocol):
    """The memory as it was at one past time (decision 0041): the reads recall, cat, ls,
    tree, show and find make, answered from intervals kept in the projections (never a
    replay). A fact not yet stored then, or purged since, is absent; the read scope is
    applied as the rules and tags are now (decision 0042). Each method means what the
    :class:`Store` method of its name means, at that time: ``find_by_kind``
    (:class:`KindQueries`), the keyword search (:class:`KeywordSearch`) and the vector
    search (:class:`VectorSearch`) are theirs, over the facts live then."""

    at: datetime

    def get_facts(self, fact_ids: Sequence[str], scope: ReadScope = EVERYTHING) -> list[Fact]:
        """The facts among ``fact_ids`` stored by then, in their state then, in order."""
        ...

    def get_fact(self, fact_id: str, scope: ReadScope = EVERYTHING) -> Fact | None: ...

    def facts_at(
        self, path: str, scope: ReadScope = EVERYTHING, *, include_inactive: bool = False
    ) -> list[Fact]: ...

    def strongest(
        self, limit: int, now: str, scope: ReadScope = EVERYTHING, *, under: str | None = None
    ) -> list[Fact]:
        """Facts live then by their strength at ``now``, from their signals then."""
        ...

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]: ...

    def effective_tags(self, fact_id: str) -> list[tuple[Tag, str | None]]: ...

    def evidence(self, fact_id: str) -> tuple[EvidenceRef, ...]:
        """The fact's evidence given by then, oldest first."""
        ...

    def subtree(self, path: str, scope: ReadScope = EVERYTHING) -> list[PathRow]: ...


@runtime_checkable
class HistoryQueries(Protocol):
    """The history protocol's lists (decision 0064): rows of :mod:`.protocol`."""

    def working_memories(
        self, scope: ReadScope, *, captured_before: str, limit: int
    ) -> list[ProtocolRow]: ...

    def interpretations_due(
        self, scope: ReadScope, *, reviewed_before: str, limit: int
    ) -> list[ProtocolRow]: ...

    def forgotten_memories(self, scope: ReadScope, *, limit: int) -> list[ForgottenRow]: ...

    def anchor_count(self, scope: ReadScope) -> int: ...

    def fact_counts(self, scope: ReadScope) -> list[tuple[str, str, str, int]]:
        """``(state, kind, stage, count)`` of the facts in ``scope``, whatever their state
        (stage ``""``: no protocol row); ``embornal status``."""
        ...

    def audit_events(
        self, scope: ReadScope, *, limit: int, before: int | None = None
    ) -> list[Event]:
        """The events of the facts in ``scope`` (forgotten ones too), newest first, at
        positions below ``before``; recalls left out (decision 0084)."""
        ...


@runtime_checkable
class TimeTravel(Protocol):
    def as_of(self, at: datetime) -> PastReads:
        """The reads of the memory as it was at ``at`` (UTC, not after now)."""
        ...


@runtime_checkable
class Store(
    UnitOfWork,
    EventStore,
    FactReads,
    KindQueries,
    PathReads,
    KeywordSearch,
    VectorStore,
    AccessStore,
    Admin,
    TimeTravel,
    StoreParts,  # the query parts: store.claims, store.links, ... (decision 0186)
    Protocol,
):
    """One open memory. Its query parts are attributes (decision 0186): these three, whose
    Protocols are this module's, and those of
    :class:`~embornal.storage.contract.all_parts.AllParts`."""

    @property
    def links(self) -> GraphReads: ...

    @property
    def protocol(self) -> HistoryQueries: ...

    @property
    def portability(self) -> Portability: ...

    @property
    def path(self) -> str:
        """Where the memory lives (a file path, or a URL)."""
        ...

    @property
    def migrations_applied(self) -> list[str]:
        """The migrations that opening the store applied."""
        ...

    def close(self) -> None: ...
