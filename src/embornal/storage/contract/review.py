"""The storage contract's part for review: proposals, retention signals, conflicts
(decisions 0055-0059), and the canon and frames of the history protocol (decision 0078).
:mod:`embornal.storage.contract.store` re-exports every name here and makes
:class:`~embornal.storage.contract.store.Store` of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.records import record

if TYPE_CHECKING:
    from datetime import datetime

    from embornal.domain.conflicts.aggregate import ConflictState
    from embornal.domain.facts.fact import Fact

__all__ = [
    "CanonReads",
    "CanonRow",
    "ConflictReads",
    "LabelCount",
    "ProposalReads",
    "ProposalRow",
    "RetentionRow",
]


@record
class CanonRow:
    """One active canon membership: the memory, its scope, since when, why, by whom, and
    whether the memory is flagged sensitive (the gate is the service's to check)."""

    fact: Fact
    scope: str
    since: datetime
    reason: str | None
    actor: str
    sensitive: bool


@record
class LabelCount:
    """A label in use (a canon scope, a frame) and how many live memories carry it."""

    label: str
    count: int


@runtime_checkable
class CanonReads(Protocol):
    """The active canon and the frames in use (decision 0078), of live facts in scope,
    and the anchors the recall cascade puts before them."""

    def canon_rows(
        self, scope: ReadScope, *, canon_scope: str | None = None, fact_id: str | None = None
    ) -> list[CanonRow]:
        """The active memberships, oldest first (of one canon scope, of one fact)."""
        ...

    def canon_scopes(self, scope: ReadScope) -> list[LabelCount]:
        """The canon scopes with an active membership, by name, with their counts."""
        ...

    def frame_counts(self, scope: ReadScope) -> list[LabelCount]:
        """The frames of live memories, by name, with their counts."""
        ...

    def frames_of(self, fact_ids: Sequence[str]) -> dict[str, str]:
        """The frame of each of ``fact_ids`` that has one (the recall cascade's filter)."""
        ...

    def anchor_facts(self, scope: ReadScope, *, limit: int) -> list[Fact]:
        """The live pinned facts in scope, in the order stored (the cascade's anchors,
        decision 0095)."""
        ...


@record
class ProposalRow:
    """One proposal as the ``proposals`` projection lists it (times ISO-8601 text)."""

    proposal_id: str
    status: str
    title: str | None
    source: str | None
    proposer: str
    opened_at: str
    item_count: int
    decided_by: str | None
    decided_at: str | None
    applied_count: int


@record
class RetentionRow:
    """The stored signals retention scores one live fact by (decision 0056)."""

    fact_id: str
    path: str
    kind: str
    created_at: str
    last_recall_at: str | None
    recall_count: int
    confidence: float | None
    last_confirmed_at: str | None
    pinned: bool
    user_weight: float | None
    lifetime: str


@runtime_checkable
class ConflictReads(Protocol):
    """Conflicts and the entity keys that find them (decision 0059). Ids only, never
    filtered by a read scope: the service reads the facts they name in its scope, and
    shows a conflict only to a subject who may read every member."""

    def entity_matches(self, keys: Sequence[str], *, exclude: str, limit: int = 50) -> list[str]:
        """The live facts holding any of ``keys`` (entity or preference keys), oldest
        first, but ``exclude``; inside a unit of work, as of it."""
        ...

    def entity_groups(self, largest: int = 50) -> list[tuple[str, ...]]:
        """The live facts sharing a key, one sorted tuple per key held by 2..``largest``."""
        ...

    def fact_texts(self) -> list[tuple[str, str, str]]:
        """``(id, kind, content)`` of every live fact, oldest first (a scan's input)."""
        ...

    def conflict_states(
        self,
        *,
        ids: Sequence[str] | None = None,
        prefix: str | None = None,
        status: str | None = None,
        conflict_class: str | None = None,
        fact_id: str | None = None,
        limit: int = 1000,
    ) -> list[ConflictState]:
        """Conflicts as the projection holds them, newest first."""
        ...


@runtime_checkable
class ProposalReads(Protocol):
    def proposal_rows(self, *, status: str | None = None, limit: int = 50) -> list[ProposalRow]:
        """Proposals (of ``status``, or all), newest first, at most ``limit``."""
        ...

    def proposal_ids(self, prefix: str, *, after: str | None = None, limit: int = 2) -> list[str]:
        """Up to ``limit`` proposal ids that start with ``prefix`` (upper-cased), after ``after``,
        in order (who may see each is the service's to decide: it pages through them)."""
        ...

    def retention_rows(self, scope: ReadScope = EVERYTHING) -> list[RetentionRow]:
        """The retention signals of every live fact in scope, oldest first."""
        ...

    def link_in_degree(self, scope: ReadScope = EVERYTHING) -> dict[str, int]:
        """How many live facts in scope link to each path (``[[/path]]``, keyed by the
        path) and to each fact (typed links, keyed by its id): the one read of centrality."""
        ...
