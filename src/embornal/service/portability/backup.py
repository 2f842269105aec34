"""``embornal admin backup FILE`` and ``admin restore FILE`` (decision 0063).

A backup is a consistent copy of the whole memory, made while writers go on (SQLite's
online backup: one read snapshot; a PostgreSQL memory's is a SQLite memory file written
from one ``REPEATABLE READ`` snapshot, decisions 0073 and 0102). A restore checks the
backup first (a sound file, a log, migrated to this version, its projections equal to a
replay of its log) and only then writes it over the memory, in one transaction.
"""

from __future__ import annotations

from pathlib import Path

from embornal.domain.clock import Clock
from embornal.domain.records import record
from embornal.errors import InvalidInput
from embornal.service.context import ServiceContext
from embornal.storage.factory import backend_of, checked_backup, restore_backup

__all__ = ["Backup", "Restored", "backup", "restore"]


@record
class Backup:
    """What ``admin backup`` wrote: the file, and how many events the memory held."""

    file: str
    events: int


@record
class Restored:
    """What ``admin restore`` put in place: the memory's file, and its events."""

    db_file: str
    events: int


def backup(ctx: ServiceContext, file: str) -> Backup:
    target = Path(file).expanduser()
    events = ctx.store.portability.event_count()
    ctx.store.portability.backup(str(target))
    return Backup(file=str(target), events=events)


def restore(source: str, target: str, clock: Clock, *, replace: bool = False) -> Restored:
    """Check the backup ``source`` and write it over the memory at ``target`` (a memory
    that holds events only with ``replace``). No memory may be open on ``target`` here.
    A PostgreSQL ``target`` must hold no event (its log is append-only: ``replace`` is
    refused); the checked backup is copied into it (decision 0102)."""
    if backend_of(target) == "postgresql":
        return _into_database(source, target, clock, replace=replace)
    events = restore_backup(
        str(Path(source).expanduser()), str(Path(target).expanduser()), clock, replace=replace
    )
    return Restored(db_file=str(target), events=events)


def _into_database(source: str, target: str, clock: Clock, *, replace: bool) -> Restored:
    from embornal.service.portability.copying import into_database, refuse_non_empty, shown_target

    if replace:
        raise InvalidInput(
            "a PostgreSQL memory is restored only into an empty database (its log is "
            "append-only): --replace does not apply; nothing was written",
            hint="Create a new database (`createdb NAME`) and restore into it.",
        )
    refuse_non_empty(target, clock)  # before the backup is read and checked
    with checked_backup(str(Path(source).expanduser()), clock) as saved:
        copied = into_database(saved, target, clock, None)
    return Restored(db_file=shown_target(target), events=copied.events)
