"""Migration 0022_history_protocol: from a blank database and from a database of release
0.1.0 (the fixture), the protocol's tables exist, every old fact counts as consolidated
archive, and the protocol works on old facts and new ones with the projections matching
the log."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.storage.sqlite.connect import connect

FIXTURE = Path(__file__).parent.parent / "fixtures" / "memory-0.1.0.db.gz"


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def _tables(db: Path | str) -> set[str]:
    conn = connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_a_blank_database_gets_the_protocol_tables(memory: Memory) -> None:
    assert "0022_history_protocol" in memory.migrations_applied
    assert {"memory_protocol", "memory_corroborations"} <= _tables(memory.db_path)


def test_an_old_database_gets_them_and_its_facts_count_as_consolidated(
    old_memory: Memory,
) -> None:
    mem = old_memory
    assert "0022_history_protocol" in mem.migrations_applied
    assert {"memory_protocol", "memory_corroborations"} <= _tables(mem.db_path)
    assert mem.due_for_consolidation() == [] and mem.list_forgotten(limit=1000) is not None
    old = mem.recall("sqlite tea", reinforce=False, limit=50)[0].fact
    report = mem.provenance(old.id)
    assert (report.tier, report.sensitive, report.recorded) == ("archive", False, 0)
    assert mem.pin(old.id, reason="still central").pinned  # consolidated: it pins
    new = mem.remember("Captured after the upgrade.", source="me")
    mem.corroborate(new.fact.id, "you")
    assert mem.verify() == []
