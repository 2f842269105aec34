"""``embornal admin backup FILE`` and ``admin restore FILE`` (decision 0063).

A backup is a consistent copy of the whole memory, made while writers go on (SQLite's
online backup: one read snapshot). A restore checks the backup first (a sound file, a
log, migrated to this version, its projections equal to a replay of its log) and only
then writes it over the memory, in one transaction.
"""

from __future__ import annotations

from pathlib import Path

from embornal.domain.clock import Clock
from embornal.domain.records import record
from embornal.service.context import ServiceContext
from embornal.storage.factory import restore_backup

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
    events = ctx.store.event_count()
    ctx.store.backup(str(target))
    return Backup(file=str(target), events=events)


def restore(source: str, target: str, clock: Clock, *, replace: bool = False) -> Restored:
    """Check the backup ``source`` and write it over the memory at ``target`` (a memory
    that holds events only with ``replace``). No memory may be open on ``target`` here."""
    events = restore_backup(
        str(Path(source).expanduser()), str(Path(target).expanduser()), clock, replace=replace
    )
    return Restored(db_file=str(target), events=events)
