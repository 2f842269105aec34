"""The storage contract's part for narrative accounts (decisions 0085, 0086).
:mod:`embornal.storage.contract.store` re-exports every name here and makes
:class:`~embornal.storage.contract.store.Store` of them."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from embornal.domain.records import record

__all__ = ["NarrativeReads", "NarrativeRow"]


@record
class NarrativeRow:
    """One version as the ``narratives`` projection lists it (time ISO-8601 text); its
    text is in its stream."""

    narrative_id: str
    stream_id: str
    scope: str
    perspective: str
    number: int
    recorded_at: str


@runtime_checkable
class NarrativeReads(Protocol):
    def narrative_accounts(
        self, *, scope: str | None = None, limit: int = 200
    ) -> list[NarrativeRow]:
        """The current version of each account (of ``scope``, or all), the most recently
        versioned first, at most ``limit``."""
        ...

    def narratives_on(self, fact_id: str) -> list[NarrativeRow]:
        """The current versions that depend on the fact ``fact_id`` (a memory, or an end
        of a link they name), the most recent first."""
        ...

    def narrative_row(self, narrative_id: str) -> NarrativeRow | None:
        """The version of that id (exact, upper-cased), None: no such version."""
        ...
