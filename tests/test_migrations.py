"""Migrations: named, forward-only, each in its own transaction, recorded in a table.

A blank database gets every migration in order and the guide under /memory; reopening is
a no-op; an old database (built with only the first migrations) is brought up to date by
``Memory.open``; a failing migration rolls back its own transaction and leaves the earlier
ones recorded; several processes opening one new file at once all succeed and write the
guide once.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.domain.clock import Clock, parse_time
from embornal.errors import DatabaseBusy, MigrationError, StorageError
from embornal.storage.common.guide import GUIDE_FACTS, GUIDE_PATH
from embornal.storage.sqlite import migrations
from embornal.storage.sqlite.connect import Connection, connect
from embornal.storage.sqlite.migrations import MIGRATIONS, Migration, applied, migrate

WORKERS = Path(__file__).parent / "helpers" / "workers.py"
ALL_NAMES = [m.name for m in MIGRATIONS]


@pytest.fixture
def conn(db_path: Path) -> Iterator[Connection]:
    with closing(connect(db_path)) as c:
        yield c


def _tables(conn: Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _count(conn: Connection, sql: str, *params: object) -> int:
    return int(conn.execute(sql, params).fetchone()[0])


def _assert_guide(mem: Memory) -> None:
    views = mem.cat(GUIDE_PATH)
    assert sorted(v.fact.content for v in views) == sorted(GUIDE_FACTS)
    for v in views:
        assert v.fact.owner == "default"
        tags = {(t.key, t.value) for t in v.fact.tags}
        assert {("visibility", "public"), ("owner", "default")} <= tags
        assert v.fact.pinned  # decision 0154: an anchor, never pruned, never fading
        assert v.fact.lifetime == "permanent"


# -- a blank database ------------------------------------------------------------------


def test_names_are_unique_and_ordered() -> None:
    assert len(set(ALL_NAMES)) == len(ALL_NAMES)
    assert sorted(ALL_NAMES) == ALL_NAMES
    assert ALL_NAMES[0] == "0001_initial"
    assert {m.kind for m in MIGRATIONS} <= {"schema", "data"}


def test_blank_database_gets_every_migration_in_order(conn: Connection, clock: FixedClock) -> None:
    assert migrate(conn, clock) == ALL_NAMES
    assert applied(conn) == ALL_NAMES
    rows = conn.execute("SELECT name, applied_at FROM migrations ORDER BY rowid").fetchall()
    assert [r[0] for r in rows] == ALL_NAMES
    assert all(r[1] == "2026-01-01T12:00:00.000000Z" for r in rows)


def test_open_writes_the_guide_under_memory(memory: Memory, db_path: Path) -> None:
    _assert_guide(memory)
    with closing(connect(db_path)) as conn:
        guide = conn.execute(
            "SELECT e.actor, e.actor_kind, e.reason, e.type FROM events e JOIN facts f "
            "ON f.id = e.stream_id JOIN paths p ON p.id = f.path_id WHERE p.path = ?",
            (GUIDE_PATH,),
        ).fetchall()
    # each stored, then pinned and made permanent, by the system and saying why
    assert sorted(r[3] for r in guide) == sorted(
        ["FactStored", "FactImportanceAdjusted", "FactLifetimeChanged"] * len(GUIDE_FACTS)
    )
    assert {(r[0], r[1]) for r in guide} == {("system", "system")}
    assert all(r[2] for r in guide)


def test_a_guide_written_before_it_was_pinned_is_pinned_at_open(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory whose guide was written before 0031 gets the pin and the permanent
    lifetime at open, through events whose reason the history shows (decision 0154)."""
    before = ALL_NAMES.index("0031_guide_anchors")
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:before])
        with Memory.open(db_path, clock=clock) as mem:
            assert not any(v.fact.pinned for v in mem.cat(GUIDE_PATH))
            assert {v.fact.lifetime for v in mem.cat(GUIDE_PATH)} == {"standard"}
    with Memory.open(db_path, clock=clock) as mem:
        assert mem.migrations_applied == list(ALL_NAMES[before:])
        _assert_guide(mem)
        first = mem.cat(GUIDE_PATH)[0].fact
        kinds = [(e.type, e.actor) for e in mem.history(first.id)]
        assert ("FactImportanceAdjusted", "system") in kinds
        assert ("FactLifetimeChanged", "system") in kinds
        assert mem.verify() == []
    with Memory.open(db_path, clock=clock) as mem:  # once only
        assert mem.migrations_applied == []
        assert len(mem.history(first.id)) == len(kinds)


def test_an_earlier_guide_text_naming_mcp_tools_is_superseded_at_open(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The texts that said "(MCP: cat)" when the core profile has no cat are superseded
    by today's, which the history keeps as a supersede of the system (decision 0154)."""
    from embornal.storage.common import guide

    kept = (t for t in GUIDE_FACTS if t not in guide._EARLIER.values())
    earlier = (*guide._EARLIER, *kept)  # the texts of an older build
    before = ALL_NAMES.index("0031_guide_anchors")
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:before])
        m.setattr(guide, "GUIDE_FACTS", earlier)
        with Memory.open(db_path, clock=clock) as mem:
            assert sum("(MCP:" in v.fact.content for v in mem.cat(GUIDE_PATH)) == 4
    with Memory.open(db_path, clock=clock) as mem:
        _assert_guide(mem)  # today's texts, each pinned and permanent
        new = next(v.fact for v in mem.cat(GUIDE_PATH) if v.fact.supersedes_id)
        assert mem.show(str(new.supersedes_id)).fact.superseded_by == new.id
        assert mem.verify() == []


def test_the_root_is_row_one_and_the_only_row_without_a_parent(
    memory: Memory, db_path: Path
) -> None:
    memory.store("/projects/embornal/storage", "a fact deep in the tree")
    with closing(connect(db_path)) as conn:
        root = conn.execute("SELECT id, parent_id, path, depth FROM paths WHERE id = 1").fetchone()
        assert tuple(root) == (1, None, "/", 0)
        assert _count(conn, "SELECT count(*) FROM paths WHERE parent_id IS NULL") == 1
        # Each other row points at its parent, one level up.
        bad = conn.execute(
            "SELECT c.path FROM paths c JOIN paths p ON p.id = c.parent_id "
            "WHERE c.depth <> p.depth + 1"
        ).fetchall()
        assert bad == []
    # The constraint holds in the schema itself, not only in the code that writes paths.
    with closing(connect(db_path)) as conn, pytest.raises(Exception, match="CHECK"):
        conn.execute(
            "INSERT INTO paths (parent_id, name, path, depth) VALUES (NULL, 'x', '/x2', 1)"
        )


def test_reopening_is_a_no_op(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock):
        pass
    with closing(connect(db_path)) as conn:
        events = _count(conn, "SELECT count(*) FROM events")
        recorded = conn.execute("SELECT name, applied_at FROM migrations").fetchall()
    clock.advance(days=3)
    with Memory.open(db_path, clock=clock) as mem:
        assert mem.migrations_applied == []
        _assert_guide(mem)
    with closing(connect(db_path)) as conn:
        assert _count(conn, "SELECT count(*) FROM events") == events
        assert [tuple(r) for r in conn.execute("SELECT name, applied_at FROM migrations")] == [
            tuple(r) for r in recorded
        ]
        assert migrate(conn, clock) == []


# -- an old database -------------------------------------------------------------------


@pytest.mark.parametrize("done", range(1, len(MIGRATIONS)))
def test_open_brings_an_old_database_up_to_date(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, done: int
) -> None:
    with monkeypatch.context() as m, closing(connect(db_path)) as conn:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:done])
        assert migrate(conn, clock) == ALL_NAMES[:done]
        assert applied(conn) == ALL_NAMES[:done]
    with Memory.open(db_path, clock=clock) as mem:
        assert mem.migrations_applied == ALL_NAMES[done:]
        _assert_guide(mem)
        fact = mem.store("/after/upgrade", "stored after the upgrade")
        assert mem.recall("upgrade", reinforce=False)[0].fact.id == fact.id
        assert mem.verify() == []
    with closing(connect(db_path)) as conn:
        assert applied(conn) == ALL_NAMES


def test_an_old_database_keeps_its_facts(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory written before the last migrations existed keeps every fact it held."""
    from embornal.domain.events import ActorKind, FactStored, NewEvent
    from embornal.domain.facts.tags import Tag
    from embornal.storage.sqlite.store import SqliteStore

    guide_at = ALL_NAMES.index("0003_memory_guide") + 1
    old_id = "01JH5V3Q8Z" + "1" * 16
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:guide_at])
        # An older build: its store, its schema, one fact of its user.
        store = SqliteStore.open(db_path, clock)
        try:
            with store.transaction("an old build storing") as conn:
                store.append(
                    conn,
                    [
                        NewEvent(
                            stream_id=old_id,
                            body=FactStored(
                                fact_id=old_id,
                                path="/notes/old",
                                content="written before the upgrade by the user",
                                kind="fact",
                                owner="default",
                                tags=(Tag("owner", "default"), Tag("colour", "blue")),
                                created_at=parse_time("2025-06-01T00:00:00.000000Z"),
                            ),
                            actor="default",
                            actor_kind=ActorKind.PERSON,
                            recorded_at=clock.now(),
                        )
                    ],
                )
        finally:
            store.close()
    with closing(connect(db_path)) as conn:
        assert applied(conn) == ALL_NAMES[:guide_at]
        facts_before = _count(conn, "SELECT count(*) FROM facts")
    with Memory.open(db_path, clock=clock) as mem:
        assert mem.migrations_applied == ALL_NAMES[guide_at:]
        _assert_guide(mem)
        old = mem.show(old_id).fact
        assert old.content == "written before the upgrade by the user"
        assert {(t.key, t.value) for t in old.tags} == {("owner", "default"), ("colour", "blue")}
        assert [h.fact.id for h in mem.recall("upgrade user", reinforce=False)] == [old_id]
        assert mem.verify() == []
    with closing(connect(db_path)) as conn:
        assert _count(conn, "SELECT count(*) FROM facts") == facts_before
        assert _count(
            conn,
            "SELECT count(*) FROM facts f JOIN paths p ON p.id = f.path_id WHERE p.path = ?",
            GUIDE_PATH,
        ) == len(GUIDE_FACTS)


# -- a failing migration ---------------------------------------------------------------


def _creates_then_fails(conn: Connection, clock: Clock) -> None:
    conn.execute("CREATE TABLE half_done (x INTEGER)")
    conn.execute("INSERT INTO half_done VALUES (1)")
    conn.execute("INSERT INTO no_such_table VALUES (1)")


def _appends_then_fails(conn: Connection, clock: Clock) -> None:
    from embornal.domain.events import ActorKind, FactStored, NewEvent
    from embornal.domain.facts.tags import Tag
    from embornal.storage.sqlite.eventlog import append

    append(
        conn,
        [
            NewEvent(
                stream_id="01KDVDNA00AAAAAAAAAAAAAAAA",
                body=FactStored(
                    fact_id="01KDVDNA00AAAAAAAAAAAAAAAA",
                    path="/half",
                    content="written by a migration that then fails",
                    owner="default",
                    tags=(Tag("owner", "default"),),
                    created_at=parse_time("2026-01-01T12:00:00.000000Z"),
                ),
                actor="system",
                actor_kind=ActorKind.SYSTEM,
                recorded_at=clock.now(),
            )
        ],
    )
    conn.execute("SELECT * FROM no_such_table")


def _python_failure(conn: Connection, clock: Clock) -> None:
    conn.execute("CREATE TABLE half_done (x INTEGER)")
    raise RuntimeError("a bug in a data migration")


def _good(conn: Connection, clock: Clock) -> None:
    conn.execute("CREATE TABLE after_fix (x INTEGER)")


@pytest.mark.parametrize(
    ("kind", "run", "error"),
    [
        ("schema", _creates_then_fails, StorageError),
        ("data", _appends_then_fails, StorageError),
        ("data", _python_failure, (RuntimeError, StorageError)),
    ],
    ids=["schema-sql", "data-events", "python-error"],
)
def test_a_failing_migration_rolls_back_only_itself(
    conn: Connection,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    run: object,
    error: type[BaseException] | tuple[type[BaseException], ...],
) -> None:
    broken = Migration("9000_broken", kind, run)  # type: ignore[arg-type]
    later = Migration("9001_later", "schema", _good)
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken, later))
    with pytest.raises(error):
        migrate(conn, clock)
    # Everything before the failure is applied and recorded; nothing of it or after it is.
    assert applied(conn) == ALL_NAMES
    tables = _tables(conn)
    assert "half_done" not in tables and "after_fix" not in tables
    assert (
        conn.execute("SELECT 1 FROM facts WHERE id = '01KDVDNA00AAAAAAAAAAAAAAAA'").fetchall() == []
    )
    assert not conn.in_transaction
    events = _count(conn, "SELECT count(*) FROM events")
    # Once the migration is fixed, the next run applies it and the ones after it.
    fixed = Migration("9000_broken", kind, _good_first)
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, fixed, later))
    assert migrate(conn, clock) == ["9000_broken", "9001_later"]
    assert applied(conn) == [*ALL_NAMES, "9000_broken", "9001_later"]
    assert {"fixed_first", "after_fix"} <= _tables(conn)
    assert _count(conn, "SELECT count(*) FROM events") == events


def _good_first(conn: Connection, clock: Clock) -> None:
    conn.execute("CREATE TABLE fixed_first (x INTEGER)")


def test_a_failing_migration_stops_memory_open_until_fixed(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Migration("9000_broken", "schema", _creates_then_fails)
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(StorageError) as info:
        Memory.open(db_path, clock=clock)
    assert "9000_broken" in info.value.message
    monkeypatch.undo()
    with Memory.open(db_path, clock=clock) as mem:
        _assert_guide(mem)
        assert mem.verify() == []


def test_a_failing_migration_raises_migration_error(
    conn: Connection, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Migration("9000_broken", "schema", _creates_then_fails)
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(MigrationError) as info:
        migrate(conn, clock)
    assert info.value.code == "migration_error"
    assert "9000_broken" in info.value.message


# -- several processes opening one new file --------------------------------------------


@pytest.mark.parametrize("openers", [2, 4])
def test_processes_opening_a_new_file_at_once_write_the_guide_once(
    tmp_path: Path, openers: int
) -> None:
    for attempt in range(3):
        db = tmp_path / f"race{attempt}.db"
        # An empty file already in WAL mode: the processes race on the migrations. (Racing
        # on the very first connect is the next test.)
        connect(db).close()
        outputs: list[str] = []
        with ExitStack() as stack:
            procs = []
            for n in range(openers):
                err = stack.enter_context((tmp_path / f"open{attempt}-{n}.err").open("w+"))
                proc = stack.enter_context(
                    subprocess.Popen(
                        [sys.executable, str(WORKERS), "open", str(db)],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=err,
                        text=True,
                    )
                )
                procs.append((proc, err))
            for proc, _ in procs:
                assert proc.stdout is not None
                assert proc.stdout.readline() == "ready\n"
            for proc, _ in procs:
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            for proc, err in procs:
                out, _ = proc.communicate()
                err.seek(0)
                assert proc.returncode == 0, err.read()
                outputs.append(out.strip())
        assert outputs == [f"guide {len(GUIDE_FACTS)}"] * openers
        with closing(connect(db)) as conn:
            assert applied(conn) == ALL_NAMES
            assert _count(conn, "SELECT count(*) FROM migrations") == len(ALL_NAMES)
            assert _count(
                conn,
                "SELECT count(*) FROM events WHERE actor = 'system' AND type = 'FactStored'",
            ) == len(GUIDE_FACTS)
        with Memory.open(db) as mem:
            assert mem.verify() == []


def test_connections_opening_a_brand_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    """Four threads connect to one brand-new file at the same moment, many times over."""
    failures: list[BaseException] = []
    for attempt in range(400):
        db = tmp_path / f"new{attempt}.db"
        start = threading.Barrier(4)

        def open_it(db: Path = db, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                connect(db).close()
            except DatabaseBusy as e:
                failures.append(e)

        threads = [threading.Thread(target=open_it) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == [], f"attempt {attempt}: {failures[0]}"
