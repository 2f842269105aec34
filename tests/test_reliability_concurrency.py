"""Concurrency: several processes, and several threads of one process, on one memory file.

Writers in separate processes start together (each waits for a "go" line on stdin after
opening the file) and store facts with ``store`` and ``store_many``; afterwards every fact
each writer saw committed is in the file with its content, and the counts add up. A reader
process recalling while the writers write sees no error. One ``Memory`` shared by eight
threads stores and recalls without losing a fact or raising.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing
from pathlib import Path

import pytest

from embornal import Memory, NewFact
from embornal.storage.sqlite.connect import connect

WORKERS = Path(__file__).parent / "helpers" / "workers.py"


def _kill_if_running(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()


def _spawn(stack: ExitStack, args: list[str], err: Path) -> subprocess.Popen[str]:
    """A worker whose pipes close (and which is killed if still running) when ``stack`` exits."""
    err_file = stack.enter_context(err.open("w"))
    proc = stack.enter_context(
        subprocess.Popen(
            [sys.executable, str(WORKERS), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
        )
    )
    stack.callback(_kill_if_running, proc)  # runs before Popen.__exit__ waits for it
    return proc


def _await_ready(proc: subprocess.Popen[str], err: Path) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "ready\n", f"child did not start: {line!r}\n{err.read_text()}"


def _go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()


def _collect(proc: subprocess.Popen[str], err: Path) -> tuple[dict[str, str], list[str]]:
    """The facts a writer printed, and its other lines."""
    assert proc.stdout is not None
    out, _ = proc.communicate()
    assert proc.returncode == 0, err.read_text()
    facts: dict[str, str] = {}
    other: list[str] = []
    for line in out.splitlines():
        if "\t" in line:
            fact_id, content = line.split("\t", 1)
            facts[fact_id] = content
        else:
            other.append(line)
    return facts, other


def _facts_under(db: Path, prefix: str) -> dict[str, str]:
    with closing(connect(db)) as conn:
        rows = conn.execute(
            "SELECT f.id, f.content FROM facts f JOIN paths p ON p.id = f.path_id "
            "WHERE p.path LIKE ?",
            (prefix + "%",),
        ).fetchall()
    return {r[0]: r[1] for r in rows}


def _run_writers(tmp_path: Path, db: Path, writers: int, per_writer: int) -> dict[str, str]:
    with Memory.open(db):
        pass  # the file exists and is migrated before the race starts
    printed: dict[str, str] = {}
    with ExitStack() as stack:
        procs = []
        for w in range(writers):
            err = tmp_path / f"writer{w}.err"
            procs.append((_spawn(stack, ["write", str(db), f"w{w}", str(per_writer)], err), err))
        for proc, err in procs:
            _await_ready(proc, err)
        for proc, _ in procs:
            _go(proc)
        for proc, err in procs:
            facts, other = _collect(proc, err)
            assert other == ["done"]
            assert len(facts) == per_writer
            printed.update(facts)
    return printed


@pytest.mark.parametrize("writers", [2, 4])
def test_processes_storing_at_once_lose_nothing(tmp_path: Path, writers: int) -> None:
    db = tmp_path / "shared.db"
    per_writer = 60
    printed = _run_writers(tmp_path, db, writers, per_writer)
    assert len(printed) == writers * per_writer  # ids are unique across processes
    assert _facts_under(db, "/writers/") == printed
    with Memory.open(db) as mem:
        for w in range(writers):
            assert len(mem.cat(f"/writers/w{w}")) == per_writer
        assert mem.verify() == []
    with closing(connect(db)) as conn:
        assert [tuple(r) for r in conn.execute("PRAGMA integrity_check")] == [("ok",)]
        versions = conn.execute(
            "SELECT count(*) FROM (SELECT stream_id, version FROM events "
            "GROUP BY stream_id, version HAVING count(*) > 1)"
        ).fetchone()[0]
        assert versions == 0


def test_reader_recalling_while_writers_write_sees_no_error(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    with Memory.open(db) as mem:
        mem.store("/writers/seed", "writerfact seed item0 single")
    stopfile = tmp_path / "stop"
    with ExitStack() as stack:
        reader_err = tmp_path / "reader.err"
        reader = _spawn(stack, ["read", str(db), str(stopfile)], reader_err)
        writers = []
        for w in range(2):
            err = tmp_path / f"writer{w}.err"
            writers.append((_spawn(stack, ["write", str(db), f"w{w}", "80"], err), err))
        for proc, err in [(reader, reader_err), *writers]:
            _await_ready(proc, err)
        for proc, _ in [(reader, reader_err), *writers]:
            _go(proc)
        printed: dict[str, str] = {}
        for proc, err in writers:
            facts, _ = _collect(proc, err)
            printed.update(facts)
        stopfile.touch()
        _, lines = _collect(reader, reader_err)
        assert reader.returncode == 0
    assert len(lines) == 1 and lines[0].startswith("recalls "), lines
    recalls = int(lines[0].split()[1])
    assert recalls >= 1
    assert _facts_under(db, "/writers/w") == printed
    with Memory.open(db) as mem:
        assert mem.verify() == []


def _threads(count: int, work: Callable[[int], None]) -> list[BaseException]:
    """Run ``work(n)`` in ``count`` threads that start together; return what they raised."""
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(count)

    def run(n: int) -> None:
        try:
            start.wait()
            work(n)
        except BaseException as e:
            with lock:
                errors.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _describe(errors: list[BaseException]) -> str:
    return "\n".join("".join(traceback.format_exception(e)) for e in errors[:3])


@pytest.fixture
def gil_churn() -> Iterator[None]:
    """Make threads interleave often: every garbage-collector pass yields the GIL.

    Races between threads that share a ``Memory`` then show up on every run instead of
    now and then.
    """

    def yield_gil(phase: str, info: dict[str, int]) -> None:
        time.sleep(0)  # releases the GIL: another thread runs mid-allocation

    old = gc.get_threshold()
    gc.callbacks.append(yield_gil)
    gc.set_threshold(10)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.callbacks.remove(yield_gil)


def _thread_contents(n: int, i: int) -> list[str]:
    if i % 4 == 3:
        return [f"threadfact t{n} item{i} part{k}" for k in range(3)]
    return [f"threadfact t{n} item{i} single"]


def _store_round(mem: Memory, n: int, i: int) -> dict[str, str]:
    contents = _thread_contents(n, i)
    if len(contents) > 1:
        facts = mem.store_many([NewFact(f"/threads/t{n}", c) for c in contents])
    else:
        facts = [mem.store(f"/threads/t{n}", contents[0])]
    assert [f.content for f in facts] == contents
    return {f.id: f.content for f in facts}


def test_threads_recalling_while_one_thread_stores(memory: Memory) -> None:
    """Seven threads recall (reinforcing: they write too) while one stores; no error."""
    stored: dict[str, str] = {}
    rounds = 60

    def work(n: int) -> None:
        for i in range(rounds):
            if n == 0:
                stored.update(_store_round(memory, 0, i))
            else:
                hits = memory.recall(f"threadfact item{i}", limit=20, reinforce=i % 2 == 0)
                assert all(h.fact.content.startswith("threadfact") for h in hits)
                memory.recall(None, limit=5, reinforce=False)
                memory.cat("/memory")

    errors = _threads(8, work)
    assert errors == [], _describe(errors)
    expected = sorted(c for i in range(rounds) for c in _thread_contents(0, i))
    assert sorted(stored.values()) == expected
    assert {v.fact.id: v.fact.content for v in memory.cat("/threads/t0")} == stored
    assert memory.verify() == []


@pytest.mark.usefixtures("gil_churn")
def test_threads_storing_through_one_memory_lose_nothing(memory: Memory) -> None:
    stored: dict[str, str] = {}
    lock = threading.Lock()
    rounds = 40

    def work(n: int) -> None:
        for i in range(rounds):
            got = _store_round(memory, n, i)
            with lock:
                stored.update(got)

    errors = _threads(8, work)
    assert errors == [], _describe(errors)
    expected = sorted(c for n in range(8) for i in range(rounds) for c in _thread_contents(n, i))
    assert sorted(stored.values()) == expected
    live = {v.fact.id: v.fact.content for n in range(8) for v in memory.cat(f"/threads/t{n}")}
    assert live == stored
    assert memory.verify() == []


@pytest.mark.usefixtures("gil_churn")
def test_threads_storing_and_recalling_through_one_memory(memory: Memory) -> None:
    stored: dict[str, str] = {}
    lock = threading.Lock()
    rounds = 50

    def work(n: int) -> None:
        for i in range(rounds):
            got = _store_round(memory, n, i)
            with lock:
                stored.update(got)
            hits = memory.recall(f"threadfact t{n} item{i}", limit=20)
            assert set(got) <= {h.fact.id for h in hits}
            memory.recall(None, limit=5, reinforce=False)
            memory.cat(f"/threads/t{n}")

    errors = _threads(8, work)
    assert errors == [], _describe(errors)
    expected = sum(len(_thread_contents(n, i)) for n in range(8) for i in range(rounds))
    assert len(stored) == expected
    assert memory.verify() == []
