"""The storage contract's part for the timeline (decision 0089): the
history context of the memories, read by event time, by session and by keyword.
:mod:`embornal.storage.contract.store` re-exports the names here and makes
:class:`~embornal.storage.contract.store.Store` of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.records import record

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope
    from embornal.domain.facts.fact import Fact

__all__ = ["TimelineReads", "TimelineRow"]


@record
class TimelineRow:
    """A memory and its history context: ``event_at`` (ISO-8601 text; None: unknown), its
    ``session`` and ``session_position``; ``rank`` its bm25 value in a keyword search
    (lower is better), else None."""

    fact: Fact
    event_at: str | None
    session: str | None
    session_position: int | None
    rank: float | None = None


@runtime_checkable
class TimelineReads(Protocol):
    def timeline_rows(
        self,
        scope: ReadScope,
        *,
        session: str | None,
        start: str | None,
        end: str | None,
        limit: int,
        descending: bool = False,
        include_forgotten: bool = False,
    ) -> list[TimelineRow]:
        """The memories in scope that have a history (a protocol row), by event time, then
        session position, then record order; unknown event times last (none when a
        window ``start``/``end``, inclusive ISO text, is given). Reads an index, never
        every memory."""
        ...

    def history_search_rows(
        self,
        terms: Sequence[str],
        scope: ReadScope,
        *,
        session: str | None,
        start: str | None,
        end: str | None,
        limit: int,
    ) -> list[TimelineRow]:
        """The live memories with a history matching any of ``terms`` (index terms,
        :func:`~embornal.domain.recall.text.query_terms`) within the window and session, best
        bm25 first (``keyword_search``'s ranking on each backend)."""
        ...

    def session_rows(
        self, scope: ReadScope, session: str, low: int, high: int, *, limit: int
    ) -> list[TimelineRow]:
        """The live memories in scope of ``session`` at positions ``low``..``high``."""
        ...

    def context_rows(self, fact_ids: Sequence[str], scope: ReadScope) -> list[TimelineRow]:
        """The live facts in scope among ``fact_ids``, each with its history context
        (unknown for a fact the protocol has no row of)."""
        ...
