"""Moving a memory whole: every fact in order, the redaction records, a log written back at
its own positions, the online backup of the file, and the snapshot a copy reads
(decisions 0061–0063, 0102).

:class:`SqlitePortability` holds the SQLite side of the contract's
:class:`~embornal.storage.contract.store.Portability`: a SQLite store's ``portability``.
``embornal admin restore`` is :mod:`embornal.storage.sqlite.restore`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import sqlean

from embornal.domain.clock import Clock, format_time
from embornal.domain.events import Event
from embornal.errors import Conflict, EmbornalError, InvalidImport, InvalidInput, NotFound
from embornal.storage.common.part import PartStore
from embornal.storage.common.portability import PortabilityReads, restore_entries
from embornal.storage.contract.store import Redaction
from embornal.storage.sqlite.connect import (
    DB_COMPANIONS,
    FILE_MODE,
    Connection,
    DriverError,
    atomic,
    connect,
    translate,
)

if TYPE_CHECKING:
    from embornal.storage.sqlite.snapshot import SqliteSnapshot

__all__ = [
    "SqlitePortability",
    "backup_file",
    "backup_part",
    "backup_target",
    "refusing",
    "remove_file",
    "skip_seed",
]

_PAGE = 2000  # events written at a time by restore_log


class _Store(PartStore, Protocol):
    """What the part reads through: the SQLite store's connection, file and lock too."""

    conn: Connection
    path: str
    _lock: Any
    _shared_reads: bool

    def transaction(self, doing: str = "writing") -> AbstractContextManager[Connection]: ...


class SqlitePortability(PortabilityReads):
    """The portability reads and writes of a SQLite store (``store.portability``)."""

    _store: _Store

    def restore_log(self, entries: Iterable[tuple[Event, Redaction | None]]) -> int:
        """Into an empty log, in one transaction: each event at its own position and
        version, as given (its payload at its type's current version), with its redaction
        record; then the projections, made from it. An event the projections refuse (a
        value out of their range) is an InvalidImport naming it, and nothing is written.
        Return how many were written."""
        from embornal.storage.sqlite import projector, rebuild

        with self._store.transaction("importing events") as tx:
            held = tx.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None
            count = restore_entries(held, entries, partial(_insert, tx), _PAGE)
            # the projections in the same transaction: an event they refuse leaves nothing
            rebuild.replay_in_place(tx, refusing(projector.apply, (sqlean.IntegrityError,)))
        return count

    @contextmanager
    def snapshot(self) -> Iterator[SqliteSnapshot]:
        """One read transaction of the whole memory, while writers go on (decision 0102)."""
        from embornal.storage.sqlite.snapshot import sqlite_snapshot

        if self._store._shared_reads:
            with self._store._lock, sqlite_snapshot(self._store.path, self._store.conn) as snap:
                yield snap
            return
        with sqlite_snapshot(self._store.path, None) as snap:
            yield snap

    def backup(self, target: str) -> None:
        """A consistent copy of the memory at ``target`` (a new file), made while writers go
        on: one read snapshot copied by SQLite's online backup."""
        if self._store._shared_reads:
            with self._store._lock:
                backup_file(self._store.conn, target)
            return
        source = connect(self._store.path, readonly=True)
        try:
            backup_file(source, target)
        finally:
            source.close()


def refusing(
    apply: Callable[[Any, Event], None], refused: tuple[type[BaseException], ...]
) -> Callable[[Any, Event], None]:
    """``apply`` for the events of an imported log: an event the projections refuse
    (``refused``, the driver's integrity errors; a value out of range for the projector)
    stops the import, naming the event, instead of a database error."""

    caught: tuple[type[BaseException], ...] = (
        *refused,
        InvalidInput,
        NotFound,
        Conflict,
        ValueError,
        LookupError,
    )

    def checked(tx: Any, event: Event) -> None:
        try:
            apply(tx, event)
        except caught as e:
            why = (e.message if isinstance(e, EmbornalError) else str(e)).splitlines()[0]
            raise InvalidImport(
                f"the event at position {event.position} ({event.type}) does not fit a "
                f"memory: {why[:200]}; nothing was imported",
                hint="Correct the line of that position in the file, or import the file "
                "`embornal export events` wrote.",
            ) from e

    return checked


def _insert(tx: Connection, rows: list[tuple[Any, ...]], marks: list[tuple[int, int, str]]) -> None:
    """Write ``rows`` (and their redaction records ``marks``)."""
    tx.executemany(
        "INSERT INTO events (position, stream_id, version, type, schema_version, payload, "
        "actor, actor_kind, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    tx.executemany(
        "INSERT INTO event_redactions (position, purge_position, redacted_at) VALUES (?, ?, ?)",
        marks,
    )


def skip_seed(conn: Connection, clock: Clock) -> None:
    """On a file no migration has touched: apply the schema migrations and record the data
    ones (the guide, the default rules: events) as applied without writing them, so the
    log starts empty for the import that brings its own."""
    from embornal.storage.sqlite import migrations

    if migrations.applied(conn):
        return
    migrations.migrate(conn, clock, include_data=False)
    with atomic(conn, "creating an empty memory"):
        for m in migrations.pending(conn):
            if m.kind == "data":
                conn.execute(
                    "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                    (m.name, format_time(clock.now())),
                )


def backup_file(source: Connection, target: str) -> None:
    """Copy ``source`` into the new file ``target`` (written beside it, then renamed, so a
    failed copy leaves nothing at ``target``), 0600, as one file (no WAL)."""
    dest = backup_target(target)
    if not dest.parent.is_dir():
        raise InvalidInput(f"{dest.parent} is not a directory", hint="Create it first.")
    part = backup_part(dest)
    copy = None
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        os.close(fd)
        copy = connect(part)
        source.backup(copy)  # every page in one step: one read snapshot (WAL: no writer waits)
        copy.execute("PRAGMA journal_mode = DELETE")
        copy.close()
        copy = None
        os.replace(part, dest)
    except DriverError as e:
        raise translate(e, f"backing up to {target}") from e
    finally:
        if copy is not None:
            copy.close()
        remove_file(part)


_PART = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.part(?:-wal|-shm|-journal)?")


def backup_target(target: str) -> Path:
    """The new file a backup is written to (on either backend): refused when ``target``
    already exists."""
    dest = Path(target)
    if dest.exists():
        raise InvalidInput(
            f"{target} already exists: a backup is written to a new file",
            hint="Name a file that does not exist yet, or remove the old one first.",
        )
    return dest


def backup_part(dest: Path) -> Path:
    """The file a backup to ``dest`` is written to before it is renamed there:
    ``.NAME.PID.part`` beside it. The part files a killed backup left in that folder
    (their process is gone) are removed first, whatever backup they were for."""
    with suppress(OSError):
        for found in dest.parent.glob(".*.part*"):
            m = _PART.fullmatch(found.name)
            if m is not None and not _running(int(m["pid"])):
                remove_file(found.with_name(f".{m['name']}.{m['pid']}.part"))
    part = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    remove_file(part)
    return part


def _running(pid: int) -> bool:
    """Whether process ``pid`` is running (ours, another user's, or unknown: yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True
    return True


def remove_file(path: Path) -> None:
    """Remove a database file and its companions, those that exist."""
    for name in (path, *(Path(f"{path}{c}") for c in DB_COMPANIONS)):
        with suppress(FileNotFoundError):
            name.unlink()
