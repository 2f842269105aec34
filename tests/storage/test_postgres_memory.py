"""A memory opened by a PostgreSQL URL is a whole memory through the service (``Memory.open``
with ``postgresql://…``): store, recall, correct, forget, the history protocol and verify;
no SQLite file appears for the URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from pg_server import PgServer

pytestmark = pytest.mark.postgresql


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.fresh_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop(name)


def test_a_memory_opened_by_url_stores_recalls_and_verifies(
    url: str, tmp_path: Path, clock: FixedClock
) -> None:
    os.chdir(tmp_path)  # a URL taken for a path would leave a file here
    with Memory.open(url, clock=clock) as mem:
        fact = mem.store("/projects/embornal", "The memory runs on PostgreSQL.")
        assert [h.fact.id for h in mem.recall("postgresql")] == [fact.id]
        new = mem.supersede(fact.id, "The memory runs on PostgreSQL 18.")
        s = mem.remember("Ada leads the team.", source="ada")
        mem.promote(s.fact.id, reason="a role")
        mem.pin(s.fact.id, reason="who leads")
        mem.forget(new.id, reason="moved back to SQLite")
        assert mem.verify() == []
        actions = [e.action for e in mem.chronicle.audit_log(limit=20)]
        assert actions[:4] == ["forget", "pin", "promote", "remember"]
    with Memory.open(url, clock=clock) as again:  # the same database, opened again
        assert again.show(new.id).fact.state == "forgotten"
        assert again.show(s.fact.id).fact.pinned
    assert not [p for p in tmp_path.rglob("*") if "postgres" in p.name]


def test_the_command_line_reaches_it_by_db_and_by_the_environment(url: str, tmp_path: Path) -> None:
    """``embornal --db postgresql://…`` and ``EMBORNAL_DATABASE_URL`` (the config's
    ``storage.url``) open the PostgreSQL memory, as a user runs them."""
    import subprocess
    import sys

    script = Path(sys.executable).with_name("embornal")
    env = {**os.environ, "EMBORNAL_HOME": str(tmp_path / "home")}

    def run(*args: str, **extra: str) -> str:
        proc = subprocess.run(
            [str(script), *args],
            capture_output=True,
            text=True,
            timeout=120,
            env={**env, **extra},
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    run("--db", url, "memory", "store", "/projects/pg", "Shared by the team.")
    assert "Shared by the team." in run("memory", "recall", "team", EMBORNAL_DATABASE_URL=url)
    assert "projections match" in run("admin", "verify", EMBORNAL_DATABASE_URL=url)
    assert not (tmp_path / "home" / "memory.db").exists()  # nothing went to a file
