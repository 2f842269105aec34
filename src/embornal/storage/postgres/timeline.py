"""The timeline's keyword search on PostgreSQL (decision 0089): the memories with a
history matching the terms, ranked by the keyword index's BM25 (:mod:`.keyword`, the
ranking ``keyword_search`` uses), within the window and session. The timeline's other
reads are SQLite's own (:mod:`embornal.storage.common.timeline`, through the dialect)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.storage.common import timeline
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.timeline import TimelineQueries
from embornal.storage.contract.timeline import TimelineRow
from embornal.storage.postgres import keyword

if TYPE_CHECKING:
    from embornal.storage.common.access import Visibility

__all__ = ["PgTimeline"]


class PgTimeline(TimelineQueries):
    """The timeline's reads (SQLite's), its search over the PostgreSQL keyword index: the
    PostgreSQL store's ``store.timeline``."""

    def _search(
        self, terms: Sequence[str], vis: Visibility, window: tuple[list[str], list[Any]], limit: int
    ) -> list[TimelineRow]:
        if not terms:
            return []
        where, params = window
        kept = keyword.Kept(
            (" AND ".join([*where, self._store._live(), f"({vis.sql})"]), (*params, *vis.params)),
            f"{FACT_COLS}, {timeline.CONTEXT_COLS}",
            join="JOIN memory_protocol m ON m.fact_id = f.id",
        )
        rows = keyword.ranked_rows(self._store._rows, list(terms), limit, kept)
        return timeline.rows_to_timeline(rows, self._store._facts(rows, vis), ranked=True)
