"""``admin backup`` and ``admin restore``: a consistent copy made while writers go on, and a
restore that checks the copy before it writes over anything (decision 0063)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.errors import Conflict, InvalidInput, NotFound, StorageError
from embornal.service.portability.backup import restore


def _fill(mem: Memory, n: int) -> None:
    for i in range(n):
        mem.store(f"/filler/f{i % 7}", f"filler fact number {i} about ordinary things")


def test_a_backup_made_while_another_process_writes_verifies(
    db_path: Path, tmp_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        _fill(mem, 300)
    stop = threading.Event()
    written: list[int] = []

    def write() -> None:  # a writer of its own, on its own connection, as another process
        with Memory.open(db_path, clock=clock) as writer:
            i = 0
            while not stop.is_set():
                writer.store("/during", f"written during the backup {i}")
                i += 1
            written.append(i)

    thread = threading.Thread(target=write)
    thread.start()
    copies = []
    try:
        with Memory.open(db_path, clock=clock) as mem:
            for n in range(3):
                copy = tmp_path / f"copy{n}.db"
                result = mem.backup(str(copy))
                assert result.file == str(copy) and result.events >= 300
                copies.append(copy)
    finally:
        stop.set()
        thread.join()
    assert written[0] > 0
    for copy in copies:
        assert not Path(f"{copy}-wal").exists()  # one file
        assert os.stat(copy).st_mode & 0o077 == 0  # private, as the memory
        with Memory.open(copy, clock=clock) as saved:
            assert saved.verify() == []
            try:  # a backup taken before the first write holds no /during yet
                during = [v.fact.content for v in saved.cat("/during")]
            except NotFound:
                during = []
            numbers = sorted(int(c.rsplit(" ", 1)[1]) for c in during)
            assert numbers == list(range(len(numbers)))  # a prefix of the writes: one snapshot


def test_a_backup_never_writes_over_a_file(memory: Memory, tmp_path: Path) -> None:
    there = tmp_path / "there.db"
    there.write_text("keep me", "utf-8")
    with pytest.raises(InvalidInput, match="already exists"):
        memory.backup(str(there))
    assert there.read_text("utf-8") == "keep me"
    with pytest.raises(InvalidInput, match="not a directory"):
        memory.backup(str(tmp_path / "no" / "such" / "dir.db"))


def test_restore_checks_then_restores(
    memory: Memory, db_path: Path, tmp_path: Path, clock: FixedClock
) -> None:
    fact = memory.store("/projects/x", "Kept in the backup.")
    saved = tmp_path / "saved.db"
    memory.backup(str(saved))
    target = tmp_path / "restored.db"
    result = restore(str(saved), str(target), clock)
    assert result.events == memory._store.portability.event_count()
    with Memory.open(target, clock=clock) as back:
        assert back.show(fact.id).fact.content == "Kept in the backup."
        assert back.verify() == []
        back.store("/projects/x", "Written after the restore.")
    with pytest.raises(Conflict, match="holds a memory already"):
        restore(str(saved), str(target), clock)  # it holds a memory now
    restore(str(saved), str(target), clock, replace=True)
    with Memory.open(target, clock=clock) as back:
        assert [v.fact.content for v in back.cat("/projects/x")] == ["Kept in the backup."]


def test_restore_refuses_a_file_that_is_not_a_sound_backup(
    memory: Memory, tmp_path: Path, clock: FixedClock
) -> None:
    target = tmp_path / "target.db"
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StorageError):
        restore(str(garbage), str(target), clock)
    with pytest.raises(InvalidInput, match="no backup file"):
        restore(str(tmp_path / "missing.db"), str(target), clock)
    saved = tmp_path / "saved.db"
    memory.store("/a", "A fact.")
    memory.backup(str(saved))
    from embornal.storage.sqlite.connect import connect

    conn = connect(saved)  # a copy whose projections no longer match its log
    conn.execute("UPDATE facts SET content = 'tampered' WHERE path_id != 1")
    conn.close()
    with pytest.raises(StorageError, match="does not verify"):
        restore(str(saved), str(target), clock)
    assert not target.exists() or os.path.getsize(target) == 0 or _empty(target, clock)
    assert not list(tmp_path.glob(".*restore*"))  # the scratch copy is gone


def _empty(target: Path, clock: FixedClock) -> bool:
    with Memory.open(target, clock=clock, seed=False) as mem:
        return mem._store.portability.event_count() == 0


_KILLED_MIDWAY = """
import os, signal, sys
from embornal import Memory
os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)  # dies before the rename
with Memory.open(sys.argv[1]) as mem:
    mem.backup(sys.argv[2])
"""


def test_a_killed_backup_leaves_a_part_the_next_backup_removes(
    db_path: Path, tmp_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        _fill(mem, 20)
    folder = tmp_path / "backups"
    folder.mkdir()
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_MIDWAY, str(db_path), str(folder / "monday.db")], timeout=120
    )
    assert killed.returncode == -signal.SIGKILL
    left = [p.name for p in folder.iterdir()]
    assert len(left) == 1 and left[0].startswith(".monday.db.") and left[0].endswith(".part")
    alive = folder / f".other.db.{os.getppid()}.part"  # a backup still running elsewhere
    alive.write_bytes(b"in progress")
    with Memory.open(db_path, clock=clock) as mem:
        mem.backup(str(folder / "tuesday.db"))
    assert sorted(p.name for p in folder.iterdir()) == [alive.name, "tuesday.db"]
