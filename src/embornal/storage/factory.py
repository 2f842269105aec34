"""Open a store: the one place that picks the storage backend.

The service calls :func:`open_store` and holds what it returns as a
:class:`~embornal.storage.contract.store.Store`; the backend's module is imported only here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from embornal.domain.clock import Clock
from embornal.errors import ConfigError
from embornal.hints import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from pathlib import Path

    from embornal.storage.contract.store import Store

__all__ = ["BACKENDS", "backend_of", "checked_backup", "open_store", "restore_backup"]

#: The backends :func:`open_store` can open (PostgreSQL: decision 0073, part of the contract).
BACKENDS = ("sqlite", "postgresql")


def backend_of(target: str | Path) -> str:
    """The backend a target names: a ``scheme://`` URL's scheme, else SQLite (a path)."""
    text = str(target)
    scheme, sep, _ = text.partition("://")
    if not sep or not scheme.isalnum() or text.startswith("file:"):
        return "sqlite"
    return "postgresql" if scheme in ("postgres", "postgresql") else scheme


def open_store(
    target: str | Path, clock: Clock, *, migrate: bool = True, seed: bool = True
) -> Store:
    """Open (creating and migrating as needed) the store at ``target``: a database file,
    ``:memory:``, ``sqlite:///PATH``, or a ``postgresql://`` URL. ``seed=False``: a store
    created now holds no event (no guide, no default rules: the log an import brings has
    its own)."""
    backend = backend_of(target)
    if backend == "postgresql":
        return _open_postgres(str(target), clock, migrate=migrate, seed=seed)
    if backend != "sqlite":
        raise ConfigError(
            f"no storage backend for {backend!r}",
            hint=f"Give the path of a memory file; the backends are: {', '.join(BACKENDS)}.",
        )
    from embornal.storage.sqlite.store import SqliteStore  # only here: the backend is chosen

    text = str(target)
    if text.startswith("sqlite://"):
        target = text.removeprefix("sqlite://")
    return SqliteStore.open(target, clock, migrate=migrate, seed=seed)


def _open_postgres(url: str, clock: Clock, *, migrate: bool, seed: bool) -> Store:
    try:
        from embornal.storage.postgres.store import PostgresStore  # the driver: only here
    except ImportError as e:
        raise ConfigError(
            f"storage.url names PostgreSQL, but its driver is not installed ({e.name})",
            hint="Install the extra: `pip install 'embornal[postgres]'`.",
        ) from e
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    # Its transactions are psycopg connections where the contract's ``Tx`` is SQLite's;
    # tests/storage checks the store is each protocol.
    return cast("Store", PostgresStore.open(url, clock, migrate=migrate, seed=seed))


def restore_backup(source: str, target: str, clock: Clock, *, replace: bool) -> int:
    """Check the backup file ``source`` (sound, migrated, verified) and write it over the
    memory at ``target`` (one holding events only when ``replace``); return its events.
    A database target: :func:`checked_backup` and a copy (``service.backup``)."""
    if backend_of(target) != "sqlite":
        raise ConfigError(f"no restore for {backend_of(target)!r}", hint="Restore to a file.")
    from embornal.storage.sqlite.restore import check_and_restore
    from embornal.storage.sqlite.verify import compare_with_replay

    def check(path: str) -> list[str]:
        return compare_with_replay(path, clock)

    return check_and_restore(source, target, clock, replace=replace, check=check)


@contextmanager
def checked_backup(source: str, clock: Clock) -> Iterator[Store]:
    """The backup file ``source``, checked as :func:`restore_backup` checks it (sound,
    migrated, verified), opened from a scratch copy in a private temporary directory
    (removed at the end): what a restore into a database copies from (decision 0102)."""
    import shutil
    import tempfile
    from pathlib import Path

    from embornal.storage.sqlite.restore import check_into
    from embornal.storage.sqlite.verify import compare_with_replay

    home = Path(tempfile.mkdtemp(prefix="embornal-restore-"))
    try:
        scratch = home / "backup.db"
        check_into(source, scratch, clock, lambda path: compare_with_replay(path, clock))
        store = open_store(scratch, clock)
        try:
            yield store
        finally:
            store.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
