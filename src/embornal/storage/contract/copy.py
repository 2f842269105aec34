"""The storage contract's part for copying a memory whole into another store (decision
0102): one consistent read of the log, its redaction records and its vectors, taken while
writers go on. :class:`Portability` (moving a memory whole) derives from
:class:`CopyReads`, so every :class:`~embornal.storage.contract.store.Store` has it; the
contract re-exports every name here (the vector and redaction records a snapshot holds)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.records import record
from embornal.storage.contract.rows import FactVector

if TYPE_CHECKING:
    from embornal.domain.events import Event
    from embornal.domain.facts.fact import Fact

__all__ = ["CopyReads", "FactVector", "Portability", "Redaction", "Snapshot"]


@record
class Redaction:
    """That a purge redacted an event: the purge's position, and when (ISO-8601 text)."""

    purge_position: int
    redacted_at: str


class Snapshot(Protocol):
    """The memory as one read transaction sees it (SQLite: one read snapshot of the file;
    PostgreSQL: ``REPEATABLE READ, READ ONLY``): what is written meanwhile is not in it."""

    @property
    def events(self) -> int:
        """How many events the snapshot's log holds."""
        ...

    def log(self) -> Iterator[tuple[Event, Redaction | None]]:
        """Every event in log order, with its redaction record (None: not redacted)."""
        ...

    def vector_model(self) -> tuple[int, str] | None:
        """``(width, model)`` of the vectors it holds; None when it holds none."""
        ...

    def vectors(self, page: int = 500) -> Iterator[list[FactVector]]:
        """Every fact's vector (and its pieces'), ``page`` facts at a time, by fact id."""
        ...


@runtime_checkable
class CopyReads(Protocol):
    def snapshot(self) -> AbstractContextManager[Snapshot]:
        """Open one consistent read of the whole memory (closed when the block ends)."""
        ...


@runtime_checkable
class Portability(CopyReads, Protocol):
    """Moving a memory whole (decisions 0061–0063, 0102): export, import into an empty
    memory, the online backup, and the snapshot a copy reads."""

    def every_fact(self, scope: ReadScope = EVERYTHING) -> Iterator[Fact]:
        """Every fact in scope, whatever its state, by path, then creation, then id."""
        ...

    def fact_ids(self, scope: ReadScope = EVERYTHING) -> set[str]:
        """The ids of every fact in scope, whatever its state."""
        ...

    def redactions(self) -> dict[int, Redaction]:
        """The redaction record of each event a purge redacted, by the event's position."""
        ...

    def event_count(self) -> int:
        """How many events the log holds."""
        ...

    def last_position(self) -> int:
        """The position of the log's last event (0: none)."""
        ...

    def restore_log(self, entries: Iterable[tuple[Event, Redaction | None]]) -> int:
        """Into an empty log (else :class:`~embornal.errors.Conflict`), in one transaction:
        each event at its own position, stream version, time and actor, its payload as given
        (at its type's current version), with its redaction record; then its projections.
        Return how many. ``entries`` is read as it is written: an error it raises rolls the
        transaction back (nothing written)."""
        ...

    def backup(self, target: str) -> None:
        """A consistent copy of the whole memory written to the new file ``target`` while
        writers go on."""
        ...
