"""The storage contract's part for copying a memory whole into another store (decision
0102): one consistent read of the log, its redaction records and its vectors, taken while
writers go on. :class:`~embornal.storage.contract.Portability` derives from
:class:`CopyReads`, so every :class:`~embornal.storage.contract.Store` has it; the
contract re-exports every name here (the vector and redaction records a snapshot holds)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.records import record

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["CopyReads", "FactVector", "Redaction", "Snapshot"]


@record
class FactVector:
    """One fact's vector and, for a long fact, its pieces' vectors (float32 bytes)."""

    fact_id: str
    vector: bytes
    pieces: tuple[bytes, ...] = ()


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
