"""The links projection (migration 0018_links, decision 0052): written with the events,
rebuilt from the log, checked by verify, on a blank memory and on one of release 0.1.0;
a link dangles but is never deleted with its target."""

from __future__ import annotations

import gzip
import shutil
from contextlib import closing
from pathlib import Path

from embornal import FixedClock, Memory
from embornal.storage.sqlite.connect import connect
from embornal.storage.sqlite.migrations import MIGRATIONS

FIXTURE = Path(__file__).parents[1] / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(connect(db)) as conn:
        return [tuple(r) for r in conn.execute(sql)]


def _graph(mem: Memory) -> tuple[str, str, str]:
    a = mem.store(
        "/people/a", "A.", kind="person", attributes={"full_name": "Ann", "aliases": ["A"]}
    )
    b = mem.store("/people/b", "B.", kind="person", attributes={"full_name": "Anne"})
    n = mem.store("/notes/n", "About Anne.")
    mem.link(n.id, "about", b.id)
    mem.link(a.id, "relates_to", n.id)
    mem.merge(a.id, b.id, reason="one person")
    return a.id, b.id, n.id


def test_migration_0018_is_the_links(db_path: Path, clock: FixedClock) -> None:
    assert "0018_links" in [m.name for m in MIGRATIONS]
    with Memory.open(db_path, clock=clock) as mem:
        assert "0018_links" in mem.migrations_applied
        a, b, n = _graph(mem)
        assert mem.verify() == []
    links = _rows(
        db_path, "SELECT source_id, relation, target_id FROM fact_links ORDER BY position"
    )
    first, second = sorted([a, n])
    assert links == [(n, "about", b), (first, "relates_to", second), (a, "supersedes", b)]
    assert _rows(db_path, "SELECT source_id, survivor_id FROM fact_merges") == [(b, a)]


def test_rebuild_gives_back_the_links_and_merges(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        a, _, n = _graph(mem)
        before = _rows(db_path, "SELECT * FROM fact_links ORDER BY 1, 2, 3")
        merges = _rows(db_path, "SELECT * FROM fact_merges")
        mem.rebuild()
        assert _rows(db_path, "SELECT * FROM fact_links ORDER BY 1, 2, 3") == before
        assert _rows(db_path, "SELECT * FROM fact_merges") == merges
        assert mem.verify() == []
        assert [x.fact.id for x in mem.links(n).nodes] == [a]


def test_verify_finds_a_link_the_log_does_not_hold(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        _graph(mem)
    with closing(connect(db_path)) as conn:
        conn.execute("DELETE FROM fact_links WHERE relation = 'about'")
    with Memory.open(db_path, clock=clock) as mem:
        assert any("fact_links" in line for line in mem.verify())


def test_a_purged_target_leaves_its_link_dangling(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        note = mem.store("/n", "A note.")
        gone = mem.store("/g", "Erase me.")
        mem.link(note.id, "about", gone.id)
        mem.purge(gone.id, reason="privacy")
        assert mem.links(note.id).nodes == ()
        assert [(d.target_id, d.target_state) for d in mem.dangling_links()] == [
            (gone.id, "purged")
        ]
        assert mem.verify() == []
    assert len(_rows(db_path, "SELECT * FROM fact_links")) == 1  # no cascading delete


def test_a_memory_of_release_0_1_0_takes_links(tmp_path: Path, clock: FixedClock) -> None:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        assert "0018_links" in mem.migrations_applied
        assert mem.verify() == []
        _graph(mem)
        assert mem.verify() == []


def test_links_and_merges_survive_an_export_and_import(tmp_path: Path, clock: FixedClock) -> None:
    log = tmp_path / "log.ndjson"
    with Memory.open(tmp_path / "a.db", clock=clock) as mem:
        a, _, n = _graph(mem)
        mem.export_events(str(log))
        walked = [x.fact.id for x in mem.links(n, depth=2).nodes]
    with Memory.open(tmp_path / "b.db", clock=clock, seed=False) as copy:
        copy.import_events(str(log))
        assert copy.verify() == []
        assert [x.fact.id for x in copy.links(n, depth=2).nodes] == walked == [a]
    assert _rows(tmp_path / "b.db", "SELECT * FROM fact_merges") == _rows(
        tmp_path / "a.db", "SELECT * FROM fact_merges"
    )
