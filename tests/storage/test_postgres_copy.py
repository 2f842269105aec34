"""``admin copy --to``: a whole memory into an empty one of either backend (decision 0102),
SQLite to PostgreSQL and back: the same log (positions, ids, payloads, redactions), the
projections rebuilt and verified, the vectors carried with their model, the same recall
hits; a target that holds a memory is refused and left as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pg_server import PgServer, pg_url

__all__ = ["pg_url"]  # a fixture of pg_server

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.errors import AccessDenied, InvalidInput

pytestmark = pytest.mark.postgresql

DIMS = 64
QUERIES = ("cat", "postgres database", "the team", "garden", "nothing matches this")


@pytest.fixture
def blank_url(pg_server: PgServer) -> Iterator[str]:
    """A database no memory was made in (the copy's open creates the schema)."""
    name = pg_server.blank_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop(name)


def _fill(mem: Memory) -> dict[str, str]:
    ids = {}
    for i in range(40):
        f = mem.store(f"/notes/n{i % 5}", f"note {i}: the cat and the garden, item {i}")
        ids[f"n{i}"] = f.id
    pg = mem.store("/projects/db", "The memory runs on a postgres database.")
    mem.supersede(pg.id, "The memory runs on a postgres database, version 18.")
    team = mem.store("/people/team", "The team meets on Mondays.", tags=["team=core"])
    mem.forget(ids["n3"], reason="stale")
    secret = mem.store("/notes/secret", "a secret garden password")
    mem.purge(secret.id, reason="a secret")
    mem.recall("cat")  # a reinforcement in the log
    ids["team"] = team.id
    return ids


def _log(mem: Memory) -> list[tuple[int, str, int, str]]:
    store = mem._store
    return [
        (e.position, e.stream_id, e.version, json.dumps(e.payload, sort_keys=True))
        for e in store.read_all()
    ]


def _hits(mem: Memory, mode: str) -> list[list[tuple[str, float]]]:
    return [
        [(h.fact.id, round(h.score, 6)) for h in mem.recall(q, mode=mode, reinforce=False)]
        for q in QUERIES
    ]


def test_sqlite_to_postgresql_and_back_is_the_same_memory(
    tmp_path: Path, blank_url: str, clock: FixedClock
) -> None:
    source = tmp_path / "source.db"
    seen: list[str] = []
    with Memory.open(source, clock=clock, embedder=FakeEmbedder(DIMS)) as mem:
        _fill(mem)
        log, keyword, hybrid = _log(mem), _hits(mem, "keyword"), _hits(mem, "hybrid")
        redactions, waiting = mem._store.portability.redactions(), mem.pending_embeddings()
        result = mem.copy_to(blank_url, progress=lambda step, d, t: seen.append(step))
        assert mem.verify() == []
    assert result.backend == "postgresql" and result.verified
    assert result.events == len(log) and result.vectors > 40 and result.model == "fake:64"
    assert {"copying events", "copying vectors", "verifying the copy"} <= set(seen)
    back = tmp_path / "back.db"
    with Memory.open(blank_url, clock=clock, embedder=FakeEmbedder(DIMS)) as pg:
        assert pg.verify() == []
        assert _log(pg) == log and pg._store.portability.redactions() == redactions
        assert _hits(pg, "keyword") == keyword
        assert _hits(pg, "hybrid") == hybrid
        assert pg.pending_embeddings() == waiting  # the vectors came with it
        assert pg.copy_to(str(back)).backend == "sqlite"
    with Memory.open(back, clock=clock, embedder=FakeEmbedder(DIMS)) as again:
        assert again.verify() == []
        assert _log(again) == log and again.pending_embeddings() == waiting
        assert _hits(again, "keyword") == keyword and _hits(again, "hybrid") == hybrid
    assert os.stat(back).st_mode & 0o077 == 0
    assert not list(tmp_path.glob(".*copying*"))


def test_a_target_that_holds_a_memory_is_refused_and_left_alone(
    tmp_path: Path, pg_url: str, clock: FixedClock
) -> None:
    with Memory.open(pg_url, clock=clock) as there:
        there.store("/kept", "Already here.")
        before = there._store.portability.event_count()
    taken = tmp_path / "taken.db"
    taken.write_text("keep me", "utf-8")
    with Memory.open(tmp_path / "source.db", clock=clock) as mem:
        mem.store("/a", "A fact to copy.")
        with pytest.raises(InvalidInput, match="holds a memory"):
            mem.copy_to(pg_url)
        with pytest.raises(InvalidInput, match="already exists"):
            mem.copy_to(str(taken))
        with pytest.raises(InvalidInput):
            mem.copy_to(str(tmp_path / "source.db"))
    assert taken.read_text("utf-8") == "keep me"
    with Memory.open(pg_url, clock=clock) as there:
        assert there._store.portability.event_count() == before


def test_a_subject_that_may_not_read_everything_copies_nothing(
    tmp_path: Path, blank_url: str, clock: FixedClock
) -> None:
    with Memory.open(tmp_path / "source.db", clock=clock) as mem:
        mem.store("/a", "A fact to copy.")
        narrow = mem.as_subject("guest")
        with pytest.raises(AccessDenied, match="whole memory"):
            narrow.copy_to(str(tmp_path / "copy.db"))
    assert not (tmp_path / "copy.db").exists()


def test_the_command_copies_into_postgresql_with_json(tmp_path: Path, blank_url: str) -> None:
    script = Path(sys.executable).with_name("embornal")
    env = {**os.environ, "EMBORNAL_HOME": str(tmp_path / "home")}
    db = str(tmp_path / "m.db")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(script), "--db", db, *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )

    assert run("memory", "store", "/projects/pg", "Moved to the shared server.").returncode == 0
    done = run("--json", "admin", "copy", "--to", blank_url)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["backend"] == "postgresql" and answer["verified"] is True
    assert "password" not in done.stdout
    again = run("admin", "copy", "--to", blank_url)
    assert again.returncode == 2 and "holds a memory" in again.stderr
    assert again.stderr.count("\n") == 1  # one line
