"""memory.db holds every private fact and the token hashes: only its owner may read it.

Whichever way the memory is opened (``Memory.open(path)``, the default data dir,
``EMBORNAL_HOME``, ``--db``), a directory it creates is 0700 and the database with
its ``-wal`` and ``-shm`` is 0600; an existing database others may read is tightened.
Modes are read with ``os.stat``: the tests may run as root, who reads anything.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import Memory
from embornal.errors import StorageError
from embornal.interfaces.cli.main import main
from embornal.storage.sqlite.connect import connect


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def assert_private_db(db: Path) -> None:
    """The database and its companions exist and are 0600."""
    for suffix in ("", "-wal", "-shm"):
        f = db.with_name(db.name + suffix)
        assert f.exists(), f
        assert mode(f) == 0o600, (f, oct(mode(f)))


@pytest.fixture(autouse=True)
def loose_umask() -> Iterator[None]:
    """The most permissive umask: what the code sets must not depend on the user's."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _use(mem: Memory) -> None:
    """A write, so the -wal and -shm exist while the memory is open."""
    mem.store("/x", "a private fact")


def test_memory_open_path_makes_new_directories_0700_and_files_0600(tmp_path: Path) -> None:
    db = tmp_path / "a" / "b" / "memory.db"
    with Memory.open(db) as mem:
        _use(mem)
        assert_private_db(db)
    assert mode(tmp_path / "a") == 0o700
    assert mode(tmp_path / "a" / "b") == 0o700
    assert mode(db) == 0o600


def test_a_directory_that_exists_keeps_its_mode(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    with Memory.open(shared / "memory.db") as mem:
        _use(mem)
        assert_private_db(shared / "memory.db")
    assert mode(shared) == 0o755


def test_memory_open_default_in_embornal_home(embornal_home: Path) -> None:
    with Memory.open() as mem:
        _use(mem)
        assert_private_db(embornal_home / "memory.db")
    assert mode(embornal_home) == 0o700


def test_memory_open_default_in_the_xdg_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EMBORNAL_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Memory.open() as mem:
        _use(mem)
        assert_private_db(tmp_path / "data" / "embornal" / "memory.db")
    assert mode(tmp_path / "data" / "embornal") == 0o700


def test_cli_db_flag_makes_the_files_private(tmp_path: Path) -> None:
    db = tmp_path / "new" / "memory.db"
    assert main(["--db", str(db), "memory", "store", "/x", "a private fact"]) == 0
    assert mode(tmp_path / "new") == 0o700
    assert mode(db) == 0o600
    with Memory.open(db) as mem:  # -wal and -shm, while a writer holds them
        _use(mem)
        assert_private_db(db)


def test_cli_in_embornal_home_makes_the_files_private(embornal_home: Path) -> None:
    assert main(["memory", "store", "/x", "a private fact"]) == 0
    assert mode(embornal_home) == 0o700
    assert mode(embornal_home / "memory.db") == 0o600


def test_a_loose_existing_database_is_tightened_on_open(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory.open(db) as mem:
        _use(mem)
        for suffix in ("", "-wal", "-shm"):
            os.chmod(db.with_name(db.name + suffix), 0o666)
        with Memory.open(db) as again:  # a second process opening the same file
            _use(again)
            assert_private_db(db)


def test_read_only_connections_change_no_mode(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    Memory.open(db).close()
    os.chmod(db, 0o640)
    connect(db, readonly=True).close()
    assert mode(db) == 0o640


def test_a_database_that_cannot_be_created_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StorageError, match="cannot create the database"):
        Memory.open(blocker / "memory.db")
