"""The one place that opens a database: driver, pragmas, extensions.

The stock ``sqlite3`` of many Python builds cannot load extensions, so the
driver is ``sqlean.py`` (SQLite 3.50 with FTS5 and ``load_extension``).
Driver errors are translated into :mod:`embornal.errors` here and in
:func:`atomic`.

The database holds every private fact and the token hashes, so :func:`connect`
keeps it private whatever way the memory is opened: a missing directory is
created 0700, a new ``memory.db`` 0600 (SQLite gives its ``-wal`` and ``-shm``
the mode of the database file), and an existing file readable by others is
tightened to 0600 on open, silently.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from stat import S_ISREG

import sqlean

from embornal.errors import ConcurrencyError, DatabaseBusy, EmbornalError, StorageError
from embornal.hints import Any

__all__ = [
    "DB_COMPANIONS",
    "DIR_MODE",
    "FILE_MODE",
    "Connection",
    "DriverError",
    "atomic",
    "connect",
    "has_vec",
    "make_private",
    "translate",
]

Connection = Any  # sqlean.Connection (untyped driver)
#: The driver's errors (no connection here is the stock ``sqlite3``'s, so its module, and
#: the time to load it, stay out; decision 0050).
DriverError: tuple[type[BaseException], ...] = (sqlean.Error,)

BUSY_TIMEOUT_MS = 10_000
#: Modes of what :func:`connect` creates: only the owner may read the memory.
DIR_MODE = 0o700
FILE_MODE = 0o600
#: The files SQLite keeps beside a database (WAL mode).
DB_COMPANIONS = ("-wal", "-shm", "-journal")


def translate(e: BaseException, doing: str) -> EmbornalError:
    """Turn a driver error into ours."""
    text = str(e)
    if "UNIQUE constraint failed: events.stream_id" in text:
        return ConcurrencyError(f"another writer appended to the same stream while {doing}")
    if "locked" in text or "busy" in text:
        return DatabaseBusy(f"the database is busy while {doing}: {text}")
    if "readonly" in text or "read-only" in text:
        return StorageError(
            f"the database is read-only while {doing}: {text}",
            hint="Check the permissions of memory.db and its directory.",
        )
    if "malformed" in text or "not a database" in text:
        return StorageError(
            f"the database file is damaged while {doing}: {text}",
            hint="Restore memory.db from a backup; the event log is the source of truth.",
        )
    return StorageError(f"database error while {doing}: {text}")


def _is_file_target(target: str) -> bool:
    """A path on disk (not ``:memory:``, a temporary database or a ``file:`` URI)."""
    return target not in ("", ":memory:") and not target.startswith("file:")


def _make_dirs(path: os.PathLike[str]) -> None:
    """Create the directory ``path`` and every missing parent with mode 0700."""
    from pathlib import Path  # make_private's: imported already

    directory = Path(path)
    missing: list[Path] = []
    while not directory.exists() and directory != directory.parent:
        missing.append(directory)
        directory = directory.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue  # another process made it meanwhile
        os.chmod(d, DIR_MODE)  # mkdir applies the umask; 0700 whatever it is


def _tighten(path: str | os.PathLike[str]) -> None:
    """Take every permission of group and others off ``path`` when we own it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    if info.st_mode & 0o077 and info.st_uid == os.geteuid():
        os.chmod(path, info.st_mode & 0o700)


def _create(target: os.PathLike[str]) -> None:
    """Create the empty file ``target`` with mode 0600, unless it exists.

    An existing database is never opened here: closing any descriptor of a file drops
    every POSIX lock this process holds on it, SQLite's locks included.
    """
    try:
        fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:  # another connection made it meanwhile
        return
    os.close(fd)


def make_private(path: str | os.PathLike[str]) -> None:
    """Create the database file ``path`` (0600, in a 0700 directory) if missing, and
    tighten it and its companions when others may read them.

    Raises :class:`StorageError` when the file or its directory cannot be made.
    """
    if _existing(os.fspath(path)):  # the usual open: no path to work out
        return
    from pathlib import Path

    target = Path(path)
    try:
        if not target.exists():
            _make_dirs(target.parent)
            _create(target)
        for name in ("", *DB_COMPANIONS):
            _tighten(target.with_name(target.name + name))
    except OSError as e:
        raise _not_made(target, e) from e


def _existing(path: str) -> bool:
    """:func:`make_private` of a regular file that exists, the usual open, without
    :mod:`pathlib`; False, with nothing done, for anything else. Its companions are the
    files ``make_private`` would tighten: the text of a regular file's path ends in its
    name (a trailing slash or ``.`` would fail ``os.stat``), so ``path + "-wal"`` is
    ``Path(path).with_name(name + "-wal")``."""
    try:
        if not S_ISREG(os.stat(path).st_mode):
            return False
    except (OSError, ValueError):  # make_private then says what, as it does
        return False
    try:
        for name in ("", *DB_COMPANIONS):
            _tighten(path + name)
    except OSError as e:
        from pathlib import Path

        raise _not_made(Path(path), e) from e
    return True


def _not_made(target: os.PathLike[str], e: OSError) -> StorageError:
    """What :func:`make_private` raises when ``target`` cannot be made or tightened."""
    return StorageError(
        f"cannot create the database {target}: {e.strerror or e}",
        hint="Check that its directory is writable, or pass another --db PATH.",
    )


def connect(path: str | os.PathLike[str], *, readonly: bool = False) -> Connection:
    """Open ``path`` with WAL, foreign keys, a busy timeout and secure delete.

    A database on disk opened for writing is first made private (:func:`make_private`).
    """
    target = str(path)
    if not readonly and _is_file_target(target):
        make_private(target)
    try:
        if readonly:
            conn = sqlean.connect(
                f"file:{target}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
            )
        else:
            conn = sqlean.connect(target, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlean.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if target != ":memory:" and not readonly:
            _enable_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -65536")  # 64 MiB of page cache
        conn.execute("PRAGMA foreign_keys = ON")
        # Freed pages are zeroed, so purged content does not linger in the file.
        conn.execute("PRAGMA secure_delete = ON")
    except DriverError as e:
        raise translate(e, f"opening {target}") from e
    _load_sqlite_vec(conn)
    return conn


def _enable_wal(conn: Connection, attempts: int = 50) -> None:
    """Switch to WAL. Several processes creating one new file at once can get SQLITE_BUSY
    here without the busy timeout applying, so retry for a while."""
    for attempt in range(attempts):
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlean.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or attempt == attempts - 1:
                raise
            time.sleep(0.02 * (attempt + 1))


def _load_sqlite_vec(conn: Connection) -> None:
    """Load sqlite-vec when the semantic extra is installed; keyword search needs nothing.

    The package is located, not imported: importing it pulls in numpy (~250 ms).
    """
    path = _vec_library()
    if path is None:
        return
    try:
        conn.enable_load_extension(True)
        conn.load_extension(path)
        conn.enable_load_extension(False)
    except (AttributeError, sqlean.Error):
        return


@functools.cache
def _vec_library() -> str | None:
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or spec.origin is None:
        return None
    return os.path.join(os.path.dirname(spec.origin), "vec0")


def has_vec(conn: Connection) -> bool:
    """Whether sqlite-vec is loaded on ``conn``."""
    try:
        conn.execute("SELECT vec_version()").fetchone()
    except DriverError:
        return False
    return True


@contextmanager
def atomic(conn: Connection, doing: str = "writing") -> Iterator[Connection]:
    """One write transaction (BEGIN IMMEDIATE): all of it commits, or none of it."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except DriverError as e:
        raise translate(e, doing) from e
    try:
        yield conn
    except DriverError as e:
        conn.execute("ROLLBACK")
        raise translate(e, doing) from e
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except DriverError as e:
        conn.execute("ROLLBACK")
        raise translate(e, doing) from e
