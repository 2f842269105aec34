"""``embornal admin restore``: check a backup, then write it over a memory (decision 0063).

The backup is copied beside the target, migrated and verified there, and only then
written over the target with SQLite's backup API (one transaction: a reader sees the old
memory or the new one).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from embornal.domain.clock import Clock
from embornal.errors import Conflict, InvalidInput, StorageError
from embornal.storage.sqlite.connect import DriverError, connect, translate
from embornal.storage.sqlite.portability import backup_file, remove_file

__all__ = ["check_and_restore", "check_into"]


def check_and_restore(
    source: str, target: str, clock: Clock, *, replace: bool, check: Callable[[str], list[str]]
) -> int:
    """Check the backup ``source`` and write it over the memory at ``target``; return the
    number of events it holds. The backup is copied beside the target, migrated and
    verified there (``check`` returns the differences of a path's projections from its log);
    the target is changed only when all of that passed, and then in one transaction."""
    dest = Path(target)
    scratch = dest.with_name(f".{dest.name}.restore")
    remove_file(scratch)
    try:
        events = check_into(source, scratch, clock, check)
        _write_over(scratch, dest, replace=replace)
        return events
    finally:
        remove_file(scratch)


def check_into(source: str, scratch: Path, clock: Clock, check: Callable[[str], list[str]]) -> int:
    """Copy the backup ``source`` to the new file ``scratch``, migrate it and verify it
    (``check``); return its events, or raise :class:`StorageError` (``scratch`` is the
    caller's to remove)."""
    from embornal.storage.sqlite.store import SqliteStore

    src = Path(source)
    if not src.is_file():
        raise InvalidInput(f"no backup file at {source}", hint="Name a file `admin backup` made.")
    try:
        original = connect(src, readonly=True)
        try:
            ok = original.execute("PRAGMA quick_check").fetchone()[0]
            tables = {r[0] for r in original.execute("SELECT name FROM sqlite_master")}
            if ok != "ok" or not {"events", "migrations"} <= tables:
                raise StorageError(
                    f"{source} is not a sound memory backup ({ok if ok != 'ok' else 'no log'})"
                )
            backup_file(original, str(scratch))
        finally:
            original.close()
    except DriverError as e:
        raise StorageError(f"{source} is not a memory backup: {e}") from e
    copy = SqliteStore.open(scratch, clock)  # migrations an older backup lacks
    try:
        events = copy.portability.event_count()
    finally:
        copy.close()
    problems = check(str(scratch))
    if problems:
        raise StorageError(
            f"{source} does not verify: {len(problems)} projection(s) differ from its log",
            hint="Restore another backup, or import its events into a new memory.",
        )
    return events


def _write_over(scratch: Path, dest: Path, *, replace: bool) -> None:
    if not dest.parent.is_dir():
        raise InvalidInput(f"{dest.parent} is not a directory", hint="Create it first.")
    live = connect(dest)
    try:
        if not replace:
            tables = {r[0] for r in live.execute("SELECT name FROM sqlite_master")}
            if "events" in tables and live.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise Conflict(
                    f"{dest} holds a memory already",
                    hint="Add --replace to write the backup over it (back it up first).",
                )
        copy = connect(scratch, readonly=True)
        try:
            copy.backup(live)  # one write transaction on the target
        except DriverError as e:
            raise translate(e, "restoring a backup") from e
        finally:
            copy.close()
    finally:
        live.close()
