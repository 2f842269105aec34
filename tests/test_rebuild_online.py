"""``admin rebuild`` beside the live projections: writers and readers go on while it runs.

A child process rebuilds a memory and pauses at one step (halfway through the replay, in
the middle of the copy into the work tables, or while it removes the old tables); the
parent, another process, writes, reads and purges meanwhile, then lets it go on, or kills it
with SIGKILL. Every write succeeds and is there afterwards, recall keeps answering, the
projections equal a replay of the log, and no work table outlives the rebuild.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from embornal import Memory, NewFact
from embornal.storage.sqlite.connect import connect

WORKERS = Path(__file__).parent / "helpers" / "workers.py"
DURING = "nimbostratus"  # a word only the facts written during the rebuild hold
SECRET = "zyzzogeton"
STEPS = ["replay", "copy", "clean"]


def _fill(db: Path, n: int = 600) -> list[str]:
    """A memory of ``n`` facts with forgets, tags and a supersede; the ids of the facts."""
    with Memory.open(db) as mem:
        ids: list[str] = []
        for start in range(0, n, 200):
            facts = mem.store_many(
                [
                    NewFact(f"/fill/p{i % 9}", f"filler number{i} about things{i % 13}")
                    for i in range(start, min(n, start + 200))
                ]
            )
            ids += [f.id for f in facts]
        mem.forget(ids[3], reason="stale")
        mem.tag_path("/fill", ["team=core"])
        ids[4] = mem.supersede(ids[4], "filler number4 corrected").id
        return ids


def _work_tables(db: Path) -> list[str]:
    with closing(connect(db)) as conn:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE name LIKE 'rebuild%' AND type = 'table'"
        ).fetchall()
    return [r[0] for r in rows]


class Rebuilder:
    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def go(self) -> str:
        """Let the paused rebuild go on; its last line (``done N`` or ``error CODE``)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.read().strip().splitlines()
        assert self.proc.wait() == 0
        return out[-1] if out else ""

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        assert self.proc.returncode == -signal.SIGKILL


@contextmanager
def paused_rebuild(db: Path, at: str) -> Iterator[Rebuilder]:
    with subprocess.Popen(
        [sys.executable, str(WORKERS), "rebuild", str(db), at],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        try:
            line = proc.stdout.readline()
            assert line == "paused\n", line
            yield Rebuilder(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def _store_during(mem: Memory, n: int) -> tuple[list[str], float]:
    ids: list[str] = []
    longest = 0.0
    for i in range(n):
        start = time.perf_counter()
        if i % 2:
            ids.append(mem.store("/during", f"{DURING} written during the rebuild {i}").id)
        else:
            items = [NewFact("/during/batch", f"{DURING} batch {i} item {k}") for k in range(3)]
            ids += [f.id for f in mem.store_many(items)]
        longest = max(longest, time.perf_counter() - start)
    return ids, longest


@pytest.mark.parametrize("at", STEPS)
def test_writers_and_readers_go_on_during_a_rebuild(tmp_path: Path, at: str) -> None:
    db = tmp_path / "memory.db"
    ids = _fill(db)
    with Memory.open(db) as mem, paused_rebuild(db, at) as rebuilder:
        written, longest = _store_during(mem, 12)
        forgotten = mem.forget(ids[11], reason="forgotten during the rebuild")
        # Readers see the memory whole, and the writes as they commit.
        assert [h.fact.id for h in mem.recall("number7", reinforce=False)] == [ids[7]]
        assert len(mem.recall(DURING, limit=100, reinforce=False)) == len(written)
        assert len(mem.cat("/fill/p1")) == len([i for i in range(600) if i % 9 == 1])
        assert rebuilder.go().startswith("done ")
        print(f"\nlongest write during the rebuild ({at}): {longest * 1000:.1f} ms")
        assert {h.fact.id for h in mem.recall(DURING, limit=100, reinforce=False)} == set(written)
        assert mem.show(forgotten.id).fact.deleted_at is not None
        assert [h.fact.id for h in mem.recall("number7", reinforce=False)] == [ids[7]]
        assert mem.verify() == []
    assert _work_tables(db) == []


@pytest.mark.parametrize("at", STEPS)
def test_a_rebuild_killed_midway_leaves_a_consistent_memory(tmp_path: Path, at: str) -> None:
    db = tmp_path / "memory.db"
    ids = _fill(db)
    with Memory.open(db) as mem, paused_rebuild(db, at) as rebuilder:
        written, _ = _store_during(mem, 4)
        rebuilder.kill()
    with Memory.open(db) as mem:
        assert mem.verify() == []
        assert {h.fact.id for h in mem.recall(DURING, limit=100, reinforce=False)} == set(written)
        assert [h.fact.id for h in mem.recall("number7", reinforce=False)] == [ids[7]]
        with closing(connect(db)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # The next rebuild clears what the killed one left.
        assert mem.rebuild() > 600
        assert mem.verify() == []
    assert _work_tables(db) == []


def _holds(db: Path, word: str) -> list[str]:
    found = []
    for suffix in ("", "-wal", "-journal"):
        f = Path(str(db) + suffix)
        if f.exists() and word.encode() in f.read_bytes():
            found.append(f.name)
    return found


@pytest.mark.parametrize("at", ["copy", "clean"])
def test_a_purge_during_a_rebuild_leaves_no_copy_of_the_content(tmp_path: Path, at: str) -> None:
    """The work tables held the content; the purge drops them (the rebuild then stops, or
    skips its clean-up), so no byte of it is left in the file."""
    db = tmp_path / "memory.db"
    _fill(db)
    with Memory.open(db) as mem:
        secret = mem.store("/people/ann", f"ann's code word is {SECRET}")
    assert _holds(db, SECRET)
    with Memory.open(db) as mem, paused_rebuild(db, at) as rebuilder:
        mem.purge(secret.id, reason="privacy")
        last = rebuilder.go()
    assert last == "error storage_error" if at == "copy" else last.startswith("done ")
    with Memory.open(db) as mem:  # finishes the purge's checkpoint if the rebuild held it off
        assert mem.verify() == []
        assert mem.recall(SECRET, reinforce=False) == []
    assert _work_tables(db) == []
    assert _holds(db, SECRET) == []
