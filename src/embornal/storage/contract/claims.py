"""The storage contract's part for the claims ledger (decision 0081).
:mod:`embornal.storage.contract.store` re-exports every name here and makes
:class:`~embornal.storage.contract.store.Store` of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.records import record

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["ClaimReads", "ClaimRow"]


@record
class ClaimRow:
    """One claim as the ``claims`` projection lists it (times ISO-8601 text); its text is
    in its stream."""

    claim_id: str
    owner: str
    claim_type: str
    scope: str
    status: str
    recorded_at: str
    updated_at: str


@runtime_checkable
class ClaimReads(Protocol):
    def claim_rows(
        self,
        *,
        status: str | None = None,
        scope: str | None = None,
        recorded_by: str | None = None,
        limit: int = 200,
    ) -> list[ClaimRow]:
        """Claims (of ``status`` and ``scope``, or all; recorded at or before the ISO time
        ``recorded_by``), newest first, at most ``limit``."""
        ...

    def claim_citations(self, claim_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """Every memory each claim ever cited, by claim id (a claim citing none: absent)."""
        ...

    def claims_citing(self, memory_id: str, *, limit: int = 200) -> list[ClaimRow]:
        """The claims that ever cited the memory ``memory_id`` (about it or as evidence,
        retracted too), newest first, at most ``limit`` (who may see each is the
        service's to decide)."""
        ...

    def claim_ids(self, prefix: str, *, after: str | None = None, limit: int = 2) -> list[str]:
        """Up to ``limit`` claim ids that start with ``prefix`` (upper-cased), after ``after``,
        in order (who may see each is the service's to decide: it pages through them)."""
        ...

    def events_of_types(
        self, types: Sequence[str], *, limit: int, before: int | None = None
    ) -> list[Event]:
        """The events of those types, the newest first, at positions below ``before``, at
        most ``limit`` (the audit of the claims' and narratives' streams, decision 0099;
        who may see each is the service's to decide)."""
        ...
