"""The event log is the source of truth: append-only, versioned per stream, complete.

Triggers refuse UPDATE and DELETE on ``events``; ``(stream_id, version)`` is unique, so a
writer with a stale ``expected_version`` gets ``ConcurrencyError``; every change appends an
event carrying actor, actor kind, reason and time; ``rebuild`` replays the log into the same
projections that ``verify`` compares; a tampered projection is named by ``verify``; old
payloads are upcast on read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from embornal import ActorKind, FixedClock, Memory
from embornal.domain.clock import format_time
from embornal.domain.events import EVENTS, FactForgotten, FactStored, NewEvent
from embornal.errors import ConcurrencyError
from embornal.storage.sqlite import eventlog
from embornal.storage.sqlite.connect import Connection, DriverError, atomic, connect


@pytest.fixture
def raw(db_path: Path, memory: Memory) -> Iterator[Connection]:
    """A second, raw connection to the memory's file (the memory stays open)."""
    with closing(connect(db_path)) as conn:
        yield conn


def _rows(conn: Connection, sql: str, *params: object) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in conn.execute(sql, params).fetchall()]


def _last_position(conn: Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])


# -- append-only -----------------------------------------------------------------------

REFUSED = [
    "UPDATE events SET payload = '{}'",
    "UPDATE events SET payload = '{}' WHERE position = 1",
    "UPDATE events SET reason = 'rewritten'",
    "UPDATE events SET actor = 'mallory'",
    "UPDATE events SET recorded_at = '2000-01-01T00:00:00.000000Z'",
    "UPDATE events SET type = 'FactForgotten'",
    "UPDATE events SET version = version + 100",
    "UPDATE events SET stream_id = 'elsewhere'",
    "UPDATE events SET actor_kind = 'system'",
    "UPDATE events SET schema_version = 2",
    "DELETE FROM events",
    "DELETE FROM events WHERE position = 1",
    "DELETE FROM events WHERE position IN (SELECT max(position) FROM events)",
]


@pytest.mark.parametrize("sql", REFUSED)
def test_the_log_refuses_update_and_delete(memory: Memory, raw: Connection, sql: str) -> None:
    memory.store("/log", "a fact to protect")
    before = _rows(raw, "SELECT * FROM events ORDER BY position")
    with pytest.raises(DriverError, match="append-only"):
        raw.execute(sql)
    assert _rows(raw, "SELECT * FROM events ORDER BY position") == before


_COLUMNS = (
    "position, stream_id, version, type, schema_version, payload, actor, actor_kind, "
    "reason, recorded_at"
)


@pytest.mark.parametrize("conflict_on", ["position", "stream-version"])
def test_the_log_refuses_replace(memory: Memory, raw: Connection, conflict_on: str) -> None:
    fact = memory.store("/log", "a fact to protect")
    (old,) = _rows(raw, f"SELECT {_COLUMNS} FROM events WHERE stream_id = ?", fact.id)
    forged = list(old)
    forged[5] = json.dumps({**json.loads(old[5]), "content": "forged history"})
    if conflict_on == "stream-version":
        forged[0] = None  # a new position, same (stream_id, version)
    marks = ", ".join("?" * len(forged))
    with suppress(*DriverError):
        raw.execute(f"REPLACE INTO events ({_COLUMNS}) VALUES ({marks})", forged)
    assert _rows(raw, f"SELECT {_COLUMNS} FROM events WHERE stream_id = ?", fact.id) == [old]


def _purged_event_position(memory: Memory, raw: Connection) -> int:
    fact = memory.store("/log", "soon purged", tags=["colour=red"])
    memory.purge(fact.id, reason="privacy")
    return int(
        raw.execute(
            "SELECT position FROM event_redactions WHERE position IN "
            "(SELECT position FROM events WHERE stream_id = ?)",
            (fact.id,),
        ).fetchone()[0]
    )


@pytest.mark.parametrize(
    "column_value",
    [
        ("reason", "'rewritten'"),
        ("actor", "'mallory'"),
        ("recorded_at", "'2000-01-01T00:00:00.000000Z'"),
        ("type", "'FactForgotten'"),
        ("version", "99"),
        ("stream_id", "'elsewhere'"),
        pytest.param(
            ("actor_kind", "'system'"),
            marks=(),
        ),
        pytest.param(
            ("schema_version", "0"),
            marks=(),
        ),
    ],
    ids=lambda cv: cv[0],
)
def test_a_redacted_event_only_lets_its_payload_change(
    memory: Memory, raw: Connection, column_value: tuple[str, str]
) -> None:
    """A purge may rewrite the payload of the events it redacts, and nothing else."""
    position = _purged_event_position(memory, raw)
    column, value = column_value
    before = _rows(raw, "SELECT * FROM events WHERE position = ?", position)
    with pytest.raises(DriverError, match="append-only"):
        raw.execute(f"UPDATE events SET {column} = {value} WHERE position = ?", (position,))
    assert _rows(raw, "SELECT * FROM events WHERE position = ?", position) == before


def test_redaction_records_are_append_only(memory: Memory, raw: Connection) -> None:
    position = _purged_event_position(memory, raw)
    for sql in (
        "DELETE FROM event_redactions",
        "UPDATE event_redactions SET redacted_at = 'x'",
        "UPDATE event_redactions SET purge_position = 1",
    ):
        with pytest.raises(DriverError, match="append-only"):
            raw.execute(sql)
    assert (
        raw.execute(
            "SELECT count(*) FROM event_redactions WHERE position = ?", (position,)
        ).fetchone()[0]
        == 1
    )


# -- versions and concurrency ----------------------------------------------------------


def _forget_event(fact_id: str, expected: int | None, clock: FixedClock) -> NewEvent:
    return NewEvent(
        stream_id=fact_id,
        body=FactForgotten(fact_id=fact_id),
        actor="default",
        actor_kind=ActorKind.PERSON,
        recorded_at=clock.now(),
        reason="raw append",
        expected_version=expected,
    )


def test_a_stale_expected_version_raises_concurrency_error(
    memory: Memory, raw: Connection, clock: FixedClock
) -> None:
    fact = memory.store("/log", "versioned")
    before = _last_position(raw)
    with pytest.raises(ConcurrencyError), atomic(raw, "appending"):
        eventlog.append(raw, [_forget_event(fact.id, 0, clock)])  # the stream is at 1
    assert _last_position(raw) == before
    assert memory.show(fact.id).fact.state == "active"
    # The right expected version appends at version 2.
    with atomic(raw, "appending"):
        (event,) = eventlog.append(raw, [_forget_event(fact.id, 1, clock)])
    assert event.version == 2
    assert memory.show(fact.id).fact.state == "forgotten"


def test_stream_id_and_version_are_unique_in_the_schema(memory: Memory, raw: Connection) -> None:
    fact = memory.store("/log", "unique version")
    duplicate = (
        "INSERT INTO events (stream_id, version, type, payload, actor, actor_kind, recorded_at) "
        "VALUES (?, 1, 'FactForgotten', '{}', 'x', 'person', '2026-01-01T00:00:00.000000Z')"
    )
    with pytest.raises(DriverError, match="UNIQUE"):
        raw.execute(duplicate, (fact.id,))
    # Inside a transaction the storage layer names it a concurrency conflict.
    with pytest.raises(ConcurrencyError), atomic(raw, "appending"):
        raw.execute(duplicate, (fact.id,))
    assert [e.version for e in memory.show(fact.id).events] == [1]


def test_versions_count_up_per_stream(memory: Memory) -> None:
    fact = memory.store("/log", "many changes")
    memory.forget(fact.id, reason="one")
    memory.restore(fact.id, reason="two")
    memory.forget(fact.id, reason="three")
    events = memory.show(fact.id).events
    assert [e.version for e in events] == [1, 2, 3, 4]
    assert [e.type for e in events] == [
        "FactStored",
        "FactForgotten",
        "FactRestored",
        "FactForgotten",
    ]
    assert [e.position for e in events] == sorted(e.position for e in events)


# -- every change is an event ----------------------------------------------------------


def test_every_change_appends_an_event_with_actor_kind_reason_and_time(
    db_path: Path, clock: FixedClock
) -> None:
    with (
        Memory.open(db_path, clock=clock, actor_kind="assistant") as mem,
        closing(connect(db_path)) as raw,
    ):

        def new_events(since: int) -> list[tuple[Any, ...]]:
            return _rows(
                raw,
                "SELECT stream_id, type, actor, actor_kind, reason, recorded_at, payload "
                "FROM events WHERE position > ? ORDER BY position",
                since,
            )

        def step(days: float) -> tuple[int, str]:
            clock.advance(days=days)
            return _last_position(raw), format_time(clock.now())

        since, now = step(1)
        fact = mem.store("/audit", "first version", reason="learned it")
        (stored,) = new_events(since)
        assert stored[:6] == (fact.id, "FactStored", "default", "assistant", "learned it", now)

        since, now = step(1)
        newer = mem.supersede(fact.id, "second version", reason="corrected")
        (sup,) = new_events(since)
        assert sup[:6] == (newer.id, "FactStored", "default", "assistant", "corrected", now)
        assert json.loads(sup[6])["supersedes_id"] == fact.id

        since, now = step(1)
        mem.forget(newer.id, reason="wrong after all")
        assert [r[:6] for r in new_events(since)] == [
            (newer.id, "FactForgotten", "default", "assistant", "wrong after all", now)
        ]

        since, now = step(1)
        mem.restore(newer.id, reason="right after all")
        assert [r[:6] for r in new_events(since)] == [
            (newer.id, "FactRestored", "default", "assistant", "right after all", now)
        ]

        since, now = step(1)
        hits = mem.recall("second version")
        assert [h.fact.id for h in hits] == [newer.id]
        (recalled,) = new_events(since)
        assert recalled[1:4] == ("FactsRecalled", "default", "assistant")
        assert recalled[5] == now
        assert json.loads(recalled[6])["fact_ids"] == [newer.id]

        since, now = step(1)
        mem.recall("second version", reinforce=False)
        mem.cat("/audit")
        mem.show(newer.id)
        mem.history(newer.id)
        mem.ls("/")
        mem.tree("/")
        assert new_events(since) == []  # reading is not a change

        since, now = step(1)
        mem.purge(fact.id, reason="privacy request")
        purged = new_events(since)
        assert [r[:6] for r in purged] == [
            (fact.id, "FactPurged", "default", "assistant", "privacy request", now)
        ]

        since, now = step(1)
        mem.tag_path("/audit", ["team=core"])
        (tagged,) = new_events(since)
        assert tagged[1:4] == ("PathTagged", "default", "assistant")
        assert tagged[5] == now

        # The stored signals moved with the recall: created_at, last recall and count.
        shown = mem.show(newer.id).fact
        assert shown.recall_count == 1
        assert shown.last_recall_at == datetime(2026, 1, 6, 12, 0, tzinfo=UTC)


def test_store_at_dates_the_fact_while_the_event_keeps_the_clock_time(
    memory: Memory, raw: Connection, clock: FixedClock
) -> None:
    fact = memory.store("/imported", "an old note", at="2019-03-04T05:06:07Z")
    assert fact.created_at == datetime(2019, 3, 4, 5, 6, 7, tzinfo=UTC)
    (row,) = _rows(
        raw,
        "SELECT e.recorded_at, e.payload, f.created_at, f.recorded_at FROM events e "
        "JOIN facts f ON f.id = e.stream_id WHERE e.stream_id = ?",
        fact.id,
    )
    now = format_time(clock.now())
    assert row[0] == now
    assert json.loads(row[1])["created_at"] == "2019-03-04T05:06:07.000000Z"
    assert row[2] == "2019-03-04T05:06:07.000000Z"
    assert row[3] == now


# -- rebuild and verify ----------------------------------------------------------------


def _busy_memory(mem: Memory, clock: FixedClock) -> None:
    a = mem.store("/projects/x", "alpha uses sqlite", tags=["visibility=public"])
    b = mem.store("/projects/x/deep", "beta links [[/projects/x]]")
    mem.store_many([])
    c = mem.supersede(a.id, "alpha uses sqlite with WAL")
    clock.advance(days=2)
    mem.recall("alpha")
    mem.forget(b.id, reason="stale")
    mem.restore(b.id, reason="not stale")
    d = mem.store("/people/ann", "ann likes tea", tags={"colour": "green"})
    mem.purge(d.id, reason="privacy")
    mem.tag_path("/projects", ["team=core", "visibility=internal"])
    mem.untag_path("/projects", ["team"])
    clock.advance(days=10)
    mem.recall("beta alpha")
    assert c.id


def test_rebuild_replays_the_log_into_equal_projections(
    memory: Memory, raw: Connection, clock: FixedClock
) -> None:
    _busy_memory(memory, clock)
    assert memory.verify() == []
    tables = ("facts", "fact_tags", "path_tags", "counters")
    before = {t: sorted(_rows(raw, f"SELECT * FROM {t}"), key=repr) for t in tables}
    facts_before = {v.fact.id: v.fact for v in memory.cat("/projects/x")}
    count = memory.rebuild()
    assert count == raw.execute("SELECT count(*) FROM events").fetchone()[0]
    assert memory.verify() == []
    after = {t: sorted(_rows(raw, f"SELECT * FROM {t}"), key=repr) for t in tables}
    # Row ids may be renumbered; the projected content may not.
    for t in tables:
        strip = (lambda r: r[1:]) if t == "facts" else (lambda r: r)
        assert sorted(map(strip, after[t]), key=repr) == sorted(map(strip, before[t]), key=repr)
    assert {v.fact.id: v.fact for v in memory.cat("/projects/x")} == facts_before
    assert [h.fact.content for h in memory.recall("alpha", reinforce=False)] == [
        "alpha uses sqlite with WAL"
    ]


TAMPERING = [
    ("facts", "UPDATE facts SET content = 'x' WHERE id = (SELECT max(id) FROM facts)"),
    ("facts", "UPDATE facts SET recall_count = 99"),
    ("facts", "UPDATE facts SET deleted_at = '2026-01-01T00:00:00.000000Z'"),
    ("fact_tags", "DELETE FROM fact_tags WHERE key = 'visibility'"),
    (
        "path_tags",
        "INSERT INTO path_tags (path_id, tagger, key, value) VALUES (1, 'default', 'sneaky', 'y')",
    ),
    ("paths", "INSERT INTO paths (parent_id, name, path, depth) VALUES (1, 'ghost', '/ghost', 1)"),
    ("counters", "UPDATE counters SET value = value + 5 WHERE name = 'fts_docs'"),
]


@pytest.mark.parametrize(("table", "sql"), TAMPERING, ids=[f"{t}:{s[:6]}" for t, s in TAMPERING])
def test_verify_names_a_tampered_projection_and_rebuild_repairs_it(
    memory: Memory, raw: Connection, clock: FixedClock, table: str, sql: str
) -> None:
    _busy_memory(memory, clock)
    raw.execute(sql)
    problems = memory.verify()
    assert problems, "verify saw no difference"
    assert any(p.startswith(f"{table}:") for p in problems), problems
    memory.rebuild()
    assert memory.verify() == []


def test_tampered_content_is_named_with_the_row(memory: Memory, raw: Connection) -> None:
    fact = memory.store("/t", "the true content")
    raw.execute("UPDATE facts SET content = 'x' WHERE id = ?", (fact.id,))
    (problem,) = [p for p in memory.verify() if p.startswith("facts:")]
    assert fact.id in problem
    memory.rebuild()
    assert memory.show(fact.id).fact.content == "the true content"


# -- upcasting -------------------------------------------------------------------------

OLD_ID = "01JH5V3Q8Z" + "0" * 16


def _insert_v0_event(raw: Connection) -> None:
    """A FactStored event as an older build wrote it: ``text`` and ``where``, version 0."""
    payload = {
        "fact_id": OLD_ID,
        "where": "/legacy",
        "text": "written by an old build of quillwort",
        "owner": "default",
        "created_at": "2025-01-01T00:00:00.000000Z",
    }
    raw.execute(
        "INSERT INTO events (stream_id, version, type, schema_version, payload, actor, "
        "actor_kind, reason, recorded_at) VALUES (?, 1, 'FactStored', 0, ?, 'default', "
        "'person', NULL, '2025-01-01T00:00:00.000000Z')",
        (OLD_ID, json.dumps(payload)),
    )


def _v0_to_v1(payload: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in payload.items() if k not in ("text", "where")}
    out.update(
        content=payload["text"],
        path=payload["where"],
        kind="fact",
        tags=[["owner", payload["owner"]]],
        supersedes_id=None,
    )
    return out


def test_old_payloads_are_upcast_on_read(
    memory: Memory, raw: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FactStored, "UPCASTERS", {0: _v0_to_v1})
    _insert_v0_event(raw)
    (event,) = eventlog.read_stream(raw, OLD_ID)
    assert event.schema_version == 0
    assert event.payload["content"] == "written by an old build of quillwort"
    assert event.payload["path"] == "/legacy"
    assert "text" not in event.payload
    # The projections are rebuilt from the upcast payload...
    memory.rebuild()
    shown = memory.show(OLD_ID)
    assert shown.fact.content == "written by an old build of quillwort"
    assert shown.fact.path == "/legacy"
    assert shown.events[0].payload["content"] == "written by an old build of quillwort"
    assert [h.fact.id for h in memory.recall("quillwort", reinforce=False)] == [OLD_ID]
    assert memory.verify() == []
    # ...while the log itself is never rewritten.
    stored = json.loads(
        raw.execute("SELECT payload FROM events WHERE stream_id = ?", (OLD_ID,)).fetchone()[0]
    )
    assert stored["text"] == "written by an old build of quillwort" and "content" not in stored


def test_upcasters_chain_from_any_old_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        FactStored, "UPCASTERS", {0: _v0_to_v1, -1: lambda p: {**p, "where": p.pop("place")}}
    )
    old = {"fact_id": "X", "place": "/p", "text": "t", "owner": "o", "created_at": "c"}
    got = EVENTS.upcast("FactStored", -1, dict(old))
    assert got["path"] == "/p" and got["content"] == "t"
    current = {"fact_id": "X", "content": "c"}
    assert EVENTS.upcast("FactStored", 1, dict(current)) == current
