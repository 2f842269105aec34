"""``admin backup`` and ``admin restore`` of a PostgreSQL memory (decisions 0073, 0102): the
backup is a SQLite memory file written from one ``REPEATABLE READ`` snapshot while another
writer goes on, and it verifies; ``admin restore`` checks it and copies it into an empty
database, and refuses one that holds a memory."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.errors import InvalidInput, NotFound
from embornal.service.portability.backup import restore
from pg_server import PgServer, pg_url

__all__ = ["pg_url"]  # a fixture of pg_server

pytestmark = pytest.mark.postgresql


@pytest.fixture
def blank_url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.blank_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop(name)


def test_a_backup_made_while_another_writer_goes_on_verifies(
    pg_url: str, tmp_path: Path, clock: FixedClock
) -> None:
    with Memory.open(pg_url, clock=clock, embedder=FakeEmbedder(32)) as mem:
        for i in range(150):
            mem.store(f"/filler/f{i % 7}", f"filler fact number {i} about ordinary things")
    stop = threading.Event()
    written: list[int] = []

    def write() -> None:  # a writer of its own, on its own pool, as another server
        with Memory.open(pg_url, clock=clock) as writer:
            i = 0
            while not stop.is_set():
                writer.store("/during", f"written during the backup {i}")
                i += 1
            written.append(i)

    thread = threading.Thread(target=write)
    thread.start()
    copies = []
    try:
        with Memory.open(pg_url, clock=clock) as mem:
            for n in range(3):
                copy = tmp_path / f"copy{n}.db"
                assert mem.backup(str(copy)).events >= 150
                copies.append(copy)
    finally:
        stop.set()
        thread.join()
    assert written[0] > 0
    for copy in copies:
        assert os.stat(copy).st_mode & 0o077 == 0
        with Memory.open(copy, clock=clock) as saved:
            assert saved.verify() == []
            try:
                during = [v.fact.content for v in saved.cat("/during")]
            except NotFound:
                during = []
            numbers = sorted(int(c.rsplit(" ", 1)[1]) for c in during)
            assert numbers == list(range(len(numbers)))  # a prefix of the writes: one snapshot


def test_restore_checks_a_backup_and_copies_it_into_an_empty_database(
    pg_url: str, blank_url: str, tmp_path: Path, clock: FixedClock
) -> None:
    with Memory.open(pg_url, clock=clock, embedder=FakeEmbedder(32)) as mem:
        fact = mem.store("/projects/x", "Kept in the backup.")
        saved = tmp_path / "saved.db"
        mem.backup(str(saved))
        events, waiting = mem._store.portability.event_count(), mem.pending_embeddings()
        hits = [h.fact.id for h in mem.recall("backup", mode="hybrid", reinforce=False)]
    result = restore(str(saved), blank_url, clock)
    assert result.events == events and "password" not in result.db_file
    with Memory.open(blank_url, clock=clock, embedder=FakeEmbedder(32)) as back:
        assert back.show(fact.id).fact.content == "Kept in the backup."
        assert back.verify() == [] and back.pending_embeddings() == waiting
        assert [h.fact.id for h in back.recall("backup", mode="hybrid", reinforce=False)] == hits
    with pytest.raises(InvalidInput, match="holds a memory"):
        restore(str(saved), blank_url, clock)  # it holds one now
    with pytest.raises(InvalidInput, match="append-only"):
        restore(str(saved), blank_url, clock, replace=True)
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("embornal-restore-*/backup.db"))


def test_the_commands_back_up_and_restore_a_database(
    pg_url: str, blank_url: str, tmp_path: Path
) -> None:
    script = Path(sys.executable).with_name("embornal")
    env = {**os.environ, "EMBORNAL_HOME": str(tmp_path / "home")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(script), *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )

    assert (
        run("--db", pg_url, "memory", "store", "/pg/b", "Backed up by the command.").returncode == 0
    )
    saved = tmp_path / "saved.db"
    done = run("--db", pg_url, "admin", "backup", str(saved))
    assert done.returncode == 0 and "backed up" in done.stdout, done.stderr
    back = run("--db", blank_url, "admin", "restore", str(saved))
    assert back.returncode == 0, back.stderr
    assert (
        "Backed up by the command." in run("--db", blank_url, "memory", "recall", "command").stdout
    )
    again = run("--db", blank_url, "admin", "restore", str(saved))
    assert again.returncode == 2 and "holds a memory" in again.stderr


def test_a_backup_removes_the_part_a_killed_one_left(
    pg_url: str, tmp_path: Path, clock: FixedClock
) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    folder = tmp_path / "backups"
    folder.mkdir()
    stale = folder / f".monday.db.{gone.stdout.strip()}.part"  # its process is gone
    stale.write_bytes(b"half a backup")
    Path(f"{stale}-journal").write_bytes(b"")
    with Memory.open(pg_url, clock=clock) as mem:
        mem.store("/notes/a", "A note to back up.")
        mem.backup(str(folder / "tuesday.db"))
    assert sorted(p.name for p in folder.iterdir()) == ["tuesday.db"]
