"""A bulk store (``store_many``) leaves the memory in the state one-by-one stores leave it.

``store_many`` appends its events in one statement and projects a run of stores together
(decision 0109); these tests hold that to the one-event-at-a-time path: the same log, the
same rows in every projection (ids aside, which are random), the row ids a replay gives,
and a clean ``verify``.
"""

from __future__ import annotations

import json
import re
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.errors import ConcurrencyError, InvalidInput
from embornal.service.results import NewFact
from embornal.storage.sqlite.connect import connect
from embornal.storage.sqlite.verify import PROJECTION_QUERIES

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
_ID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")


def _items() -> list[NewFact]:
    """Facts of every shape a store may take, on new and shared paths (no two in conflict:
    a batch looks for conflicts after its stores, one by one after each)."""
    out = [
        NewFact("/projects/alpha", "Alpha uses sqlite for its log."),
        NewFact("/projects/alpha/deep/er", "Deeper note about the alpha storage."),
        NewFact("/projects/alpha", "Second note on alpha.", tags=["source=import", "lang=en"]),
        NewFact(
            "/people/ada", "Ada Lovelace.", kind="person", attributes={"full_name": "Ada Lovelace"}
        ),
        NewFact(
            "/people/grace",
            "Grace Hopper.",
            kind="person",
            attributes={"full_name": "Grace Hopper"},
        ),
        NewFact("/p", "Project one.", kind="project", attributes={"name": "a", "status": "idea"}),
        NewFact("/t", "word private", visibility="private"),
        NewFact("/t/sub", "word for bob and carol", visibility="restricted:carol,bob"),
        NewFact("/parking", "parking spot C4", lifetime="until:2026-04-03"),
        NewFact("/a", "always true", at="2016-01-01T00:00:00Z", lifetime="permanent"),
        NewFact("/a", "short lived", lifetime="ephemeral"),
        NewFact("/e", "with evidence", evidence=["quote:I said so", "observation:seen"]),
        NewFact("/c", "sure of it", confidence=0.95, source="import"),
        NewFact("/Projects/Alpha/", "Folded path, tags by mapping.", tags={"team": "core"}),
        NewFact("/cjk", "记忆系统 stores café notes"),
    ]
    out += [NewFact(f"/bulk/n{i % 7}", f"bulk fact {i} about topic {i % 5}") for i in range(40)]
    return out


def _snapshot(db: Path) -> dict[str, Any]:
    """Every projection and the log, each fact id replaced by its order of first
    appearance in the log (ids hold random bits)."""
    with closing(connect(db)) as conn:
        order = [r[0] for r in conn.execute("SELECT stream_id FROM events ORDER BY position")]
        names = {sid: f"F{i}" for i, sid in enumerate(dict.fromkeys(order))}

        def plain(value: object) -> object:
            if isinstance(value, str):
                return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), value)
            return value

        out: dict[str, Any] = {
            name: sorted((tuple(plain(v) for v in row) for row in conn.execute(sql)), key=repr)
            for name, sql in PROJECTION_QUERIES.items()
        }
        out["events"] = [
            tuple(plain(v) for v in row)
            for row in conn.execute(
                "SELECT position, stream_id, version, type, schema_version, payload, actor, "
                "actor_kind, reason, recorded_at FROM events ORDER BY position"
            )
        ]
        out["seq"] = [
            plain(r[0]) for r in conn.execute("SELECT id FROM facts ORDER BY seq")
        ]  # row ids: the keyword documents are keyed by them
    return out


def _open(path: Path) -> Memory:
    return Memory.open(path, clock=FixedClock(START))


def test_a_bulk_store_equals_one_by_one_stores(tmp_path: Path) -> None:
    items = _items()
    with _open(tmp_path / "bulk.db") as bulk:
        stored = bulk.store_many(items)
        assert bulk.verify() == []
    with _open(tmp_path / "single.db") as single:
        one_by_one = [single.store_many([item])[0] for item in items]
        assert single.verify() == []
    assert [(f.path, f.content, f.tags, f.kind, f.attributes) for f in stored] == [
        (f.path, f.content, f.tags, f.kind, f.attributes) for f in one_by_one
    ]
    a, b = _snapshot(tmp_path / "bulk.db"), _snapshot(tmp_path / "single.db")
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name


def test_a_replay_of_a_bulk_store_gives_the_same_rows_and_row_ids(tmp_path: Path) -> None:
    with _open(tmp_path / "m.db") as mem:
        mem.store("/before", "one fact before the batch")
        mem.store_many(_items())
        mem.store_many(_items()[:5])
        before = _snapshot(tmp_path / "m.db")
        mem.rebuild()
        assert mem.verify() == []
    assert _snapshot(tmp_path / "m.db") == before


def test_bulk_stored_facts_are_found_by_keyword_with_their_own_text(tmp_path: Path) -> None:
    with _open(tmp_path / "m.db") as mem:
        stored = mem.store_many(_items())
        hits = mem.recall("bulk fact 17", reinforce=False, limit=3)
        wanted = next(f.id for f in stored if f.content.startswith("bulk fact 17 "))
        assert hits[0].fact.id == wanted
        assert [h.fact.content for h in mem.recall("记忆", reinforce=False)] == [
            "记忆系统 stores café notes"
        ]


def test_one_bad_fact_refuses_the_batch_and_writes_nothing(tmp_path: Path) -> None:
    with _open(tmp_path / "m.db") as mem:
        before = _snapshot(tmp_path / "m.db")
        with pytest.raises(InvalidInput):
            mem.store_many([*_items(), NewFact("/", "the root holds no facts")])
        assert _snapshot(tmp_path / "m.db") == before


def test_a_stale_expected_version_in_an_append_refuses_all_of_it(tmp_path: Path) -> None:
    from embornal.domain.events import ActorKind, FactStored, NewEvent
    from embornal.domain.facts.tags import Tag
    from embornal.storage.sqlite.connect import atomic
    from embornal.storage.sqlite.eventlog import append

    def event(fact_id: str, expected: int) -> NewEvent:
        body = FactStored(
            fact_id=fact_id,
            path="/x",
            content="x",
            owner="default",
            created_at=START,
            tags=(Tag("owner", "default"),),
        )
        return NewEvent(
            stream_id=fact_id,
            body=body,
            actor="default",
            actor_kind=ActorKind.PERSON,
            recorded_at=START,
            expected_version=expected,
        )

    with _open(tmp_path / "m.db") as mem:
        taken = mem.store("/x", "taken").id
    with closing(connect(tmp_path / "m.db")) as conn:
        count = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        with pytest.raises(ConcurrencyError), atomic(conn) as tx:
            append(tx, [event("A" * 26, 0), event(taken, 0), event("B" * 26, 0)])
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == count
        payloads = [json.loads(r[0]) for r in conn.execute("SELECT payload FROM events")]
        assert all(p.get("fact_id") != "A" * 26 for p in payloads)
