"""What moving a memory whole does the same on both backends (decisions 0061–0063, 0102):
the reads of every fact in order, the fact ids, the redaction records and the log's
extent (:class:`PortabilityReads`, from which each backend's portability part derives,
adding its own restore, snapshot and backup), and the walk of a restored log's entries
(:func:`restore_entries`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.facts.fact import Fact
from embornal.errors import Conflict
from embornal.storage.common.event_rows import event_row
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.part import StorePart
from embornal.storage.contract.store import Redaction

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["PortabilityReads", "restore_entries"]

_PAGE = 2000  # facts made from rows at a time by every_fact


class PortabilityReads(StorePart):
    """The portability reads written once for both stores (``store.portability``)."""

    def every_fact(self, scope: ReadScope = EVERYTHING) -> Iterator[Fact]:
        """Every fact in scope, whatever its state, by path, then creation, then id."""
        vis = self._store._scopes.get(scope)
        rows = self._store._rows(
            f"SELECT {FACT_COLS} FROM facts f JOIN paths p ON p.id = f.path_id "
            f"WHERE {vis.sql} ORDER BY p.path, f.created_at, f.id",
            vis.params,
        )
        for start in range(0, len(rows), _PAGE):
            yield from self._store._facts(rows[start : start + _PAGE], vis)

    def fact_ids(self, scope: ReadScope = EVERYTHING) -> set[str]:
        """The ids of every fact in scope, whatever its state."""
        vis = self._store._scopes.get(scope)
        return {
            r[0] for r in self._store._rows(f"SELECT f.id FROM facts f WHERE {vis.sql}", vis.params)
        }

    def redactions(self) -> dict[int, Redaction]:
        """Each redacted event's position, with the purge that redacted it and when."""
        rows = self._store._rows(
            "SELECT position, purge_position, redacted_at FROM event_redactions", ()
        )
        return {int(r[0]): Redaction(int(r[1]), str(r[2])) for r in rows}

    def event_count(self) -> int:
        return int(self._store._rows("SELECT count(*) FROM events", ())[0][0])

    def last_position(self) -> int:
        return int(self._store._rows("SELECT coalesce(max(position), 0) FROM events", ())[0][0])


def restore_entries(
    held: bool,
    entries: Iterable[tuple[Event, Redaction | None]],
    insert: Callable[[list[tuple[Any, ...]], list[tuple[int, int, str]]], None],
    page: int,
) -> int:
    """Write ``entries`` into an empty log: a Conflict if it ``held`` events already; else
    each event's row (:func:`~embornal.storage.common.event_rows.event_row`) and the
    redaction records (position, purge position, time) go to ``insert``, at most ``page``
    events at a time. Return how many events."""
    if held:
        raise Conflict(
            "the memory already holds events: a log is restored only into an empty one",
            hint="Import into a new memory: `embornal --db NEW.db import events FILE`.",
        )
    count = 0
    rows: list[tuple[Any, ...]] = []
    marks: list[tuple[int, int, str]] = []
    for event, mark in entries:
        rows.append(event_row(event))
        if mark is not None:
            marks.append((event.position, mark.purge_position, mark.redacted_at))
        count += 1
        if len(rows) >= page:
            insert(rows, marks)
            rows, marks = [], []
    insert(rows, marks)
    return count
