"""Crash safety: a writer killed with SIGKILL mid-flight loses nothing it saw committed.

A child process stores facts in a loop (``store`` and ``store_many`` in turn) and prints
each fact id after the call that committed it returned. The parent reads some ids, kills
the child with SIGKILL (no chance to clean up) while it is in the middle of its next
write, and reopens the file: every printed fact is there with its content, and no fact
is half-written (each facts row has exactly one FactStored event and one keyword-index
entry, the projections equal a replay of the log, and SQLite's integrity check passes).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from embornal import Memory
from embornal.storage.sqlite.connect import connect

WORKERS = Path(__file__).parent / "helpers" / "workers.py"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def _run_and_kill(db: Path, tag: str, kill_after: int, err: Path) -> dict[str, str]:
    """Start a crash writer, read ``kill_after`` committed facts, SIGKILL it."""
    seen: dict[str, str] = {}
    with (
        err.open("w") as err_file,
        subprocess.Popen(
            [sys.executable, str(WORKERS), "crash", str(db), tag],
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
        ) as proc,
    ):
        assert proc.stdout is not None
        try:
            while len(seen) < kill_after:
                line = proc.stdout.readline()
                if not line:
                    break
                if not line.endswith("\n"):
                    continue  # a line cut by the kill: not known to be committed
                fact_id, content = line.rstrip("\n").split("\t", 1)
                seen[fact_id] = content
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        # Lines written before the kill landed are also committed facts.
        for line in proc.stdout.read().splitlines(keepends=True):
            if line.endswith("\n"):
                fact_id, content = line.rstrip("\n").split("\t", 1)
                seen[fact_id] = content
    assert proc.returncode == -signal.SIGKILL, err.read_text()
    assert len(seen) >= kill_after, f"the writer stopped early:\n{err.read_text()}"
    return seen


def _assert_whole(db: Path, committed: dict[str, str]) -> None:
    """Every committed fact reads back; nothing in the file is half-written."""
    with Memory.open(db) as mem:
        for fact_id, content in committed.items():
            detail = mem.show(fact_id)
            assert detail.fact.content == content
            assert detail.fact.state == "active"
            assert [e.type for e in detail.events] == ["FactStored"]
        assert mem.verify() == []
    with closing(connect(db)) as conn:
        assert [tuple(r) for r in conn.execute("PRAGMA integrity_check")] == [("ok",)]
        facts = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
        stored = conn.execute("SELECT count(*) FROM events WHERE type = 'FactStored'").fetchone()[0]
        assert facts == stored
        # Exactly one FactStored event per facts row, and no event without its row.
        orphans = conn.execute(
            "SELECT f.id FROM facts f LEFT JOIN (SELECT stream_id, count(*) AS n FROM events "
            "WHERE type = 'FactStored' GROUP BY stream_id) e ON e.stream_id = f.id "
            "WHERE e.n IS NOT 1"
        ).fetchall()
        assert orphans == []
        rowless = conn.execute(
            "SELECT e.stream_id FROM events e LEFT JOIN facts f ON f.id = e.stream_id "
            "WHERE e.type = 'FactStored' AND f.id IS NULL"
        ).fetchall()
        assert rowless == []
        # One keyword-index entry per fact, the same rows.
        fts_rows = {r[0] for r in conn.execute("SELECT rowid FROM facts_fts")}
        fact_rows = {r[0] for r in conn.execute("SELECT seq FROM facts")}
        assert fts_rows == fact_rows
        docs = conn.execute("SELECT value FROM counters WHERE name = 'fts_docs'").fetchone()[0]
        assert docs == facts
        assert committed.keys() <= {r[0] for r in conn.execute("SELECT id FROM facts")}


@pytest.mark.parametrize("kill_points", [(1, 9), (17, 3), (60, 25)])
def test_sigkill_mid_write_loses_no_committed_fact(
    tmp_path: Path, kill_points: tuple[int, int]
) -> None:
    db = tmp_path / "crash.db"
    committed: dict[str, str] = {}
    for round_no, kill_after in enumerate(kill_points):
        seen = _run_and_kill(db, f"r{round_no}", kill_after, tmp_path / f"err{round_no}.txt")
        assert not committed.keys() & seen.keys()
        committed.update(seen)
        # Reopening recovers the file (WAL replay) and the next writer carries on.
        _assert_whole(db, committed)


def test_committed_facts_are_found_by_recall_after_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    seen = _run_and_kill(db, "recallrun", 12, tmp_path / "err.txt")
    with Memory.open(db) as mem:
        for fact_id, content in seen.items():
            word = content.split()[2]  # numberN, unique to one store call
            hits = mem.recall(f"crashfact {word}", limit=50, reinforce=False)
            assert fact_id in {h.fact.id for h in hits}
