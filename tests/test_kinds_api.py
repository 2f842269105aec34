"""Kinds through the Python API (docs/model.md, Fact and path; decisions 0029–0031): store
with a kind and attributes, update them sparsely, find by kind and attribute, list the
kinds.

The rules: "kind is immutable after creation. A Person never becomes a Location; a
misclassified memory is superseded by a new one (supersedes edge), preserving history."
"attributes (JSON, validated before write — the DB stores only schema-valid
payloads)"; "one SQL view per kind … exposing attributes as typed columns".
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.events import FactAttributesUpdated, FactStored
from embornal.domain.kinds import KINDS
from embornal.errors import AccessDenied, Conflict, InvalidAttribute, InvalidKind
from embornal.service.results import NewFact
from embornal.storage.common.kind_views import HOT_FIELDS
from embornal.storage.sqlite.connect import connect
from race_helpers import after_first_load

SECRET = "zebra-42"
FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"
PROJECT = {"name": "embornal", "status": "active"}


def _rows(db: Path | str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _event_count(mem: Memory) -> int:
    return _rows(mem.db_path, "SELECT count(*) FROM events")[0][0]


# -- store -------------------------------------------------------------------------------


def test_a_fact_stores_its_kind_attributes_and_schema_version(memory: Memory) -> None:
    fact = memory.store(
        "/projects/embornal",
        "The memory that says why.",
        kind="project",
        attributes={"name": " embornal ", "status": "Active", "target_date": "2026-12-01"},
    )
    want = {"name": "embornal", "status": "active", "target_date": "2026-12-01"}
    assert fact.kind == "project" and fact.attributes == want
    assert memory.show(fact.id).fact.attributes == want
    (stored,) = [e for e in memory.history(fact.id) if e.type == "FactStored"]
    assert isinstance(stored.body, FactStored)
    assert stored.body.attributes == want and stored.body.kind_version == KINDS.version("project")
    row = _rows(memory.db_path, "SELECT attributes, kind_version FROM facts WHERE id = ?", fact.id)
    assert json.loads(row[0][0]) == want and row[0][1] == 1
    assert memory.verify() == []


def test_a_plain_fact_stores_no_statement_its_content_is_the_statement(memory: Memory) -> None:
    plain = memory.store("/notes", "Tea at four.")
    assert plain.kind == "fact" and plain.attributes == {}
    payload = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", plain.id)
    assert "attributes" not in json.loads(payload[0][0])  # the stored format of old facts
    same = memory.store("/notes", "Coffee at nine.", attributes={"statement": "Coffee at nine."})
    assert same.attributes == {}  # equal to the content: derived, not kept twice
    other = memory.store("/notes", "Long story…", attributes={"statement": "It rained."})
    assert other.attributes == {"statement": "It rained."}
    rows = _rows(
        memory.db_path,
        "SELECT id, statement FROM view_fact WHERE id IN (?, ?, ?)",
        plain.id,
        same.id,
        other.id,
    )
    assert dict(rows) == {
        plain.id: "Tea at four.",
        same.id: "Coffee at nine.",
        other.id: "It rained.",
    }
    assert [f.id for f in memory.find("fact", {"statement": "Tea at four."})] == [plain.id]


@pytest.mark.parametrize(
    ("kind", "attributes", "error", "message"),
    [
        ("nope", None, InvalidKind, "unknown kind 'nope'; the kinds are: fact, preference"),
        ("project", {"name": "x"}, InvalidAttribute, "project.status is required"),
        ("project", {"name": "x", "status": "busy"}, InvalidAttribute, "is not one of: idea"),
        ("project", {**PROJECT, "colour": "red"}, InvalidAttribute, "has no attribute 'colour'"),
        ("fact", {"colour": "red"}, InvalidAttribute, "fact has no attribute 'colour'"),
        ("preference", {"polarity": "likes", "strength": 2}, InvalidAttribute, "from 0 to 1"),
        ("event", {"outcome": "ok"}, InvalidAttribute, "give occurred_at, or start_at"),
        ("project", ["name"], InvalidAttribute, "must be a mapping"),
    ],
)
def test_bad_kinds_and_attributes_write_nothing(
    memory: Memory, kind: str, attributes: Any, error: type[Exception], message: str
) -> None:
    before = _event_count(memory)
    with pytest.raises(error, match=message) as info:
        memory.store("/bad", "never stored", kind=kind, attributes=attributes)
    assert info.value.exit_code == 2  # type: ignore[attr-defined]
    with pytest.raises(error):
        memory.store_many(
            [NewFact("/ok", "fine"), NewFact("/bad", "never", kind=kind, attributes=attributes)]
        )
    assert _event_count(memory) == before
    assert memory.find("fact", {"statement": "fine"}) == []


def test_kinds_describes_the_twelve_schemas(memory: Memory) -> None:
    kinds = memory.kinds()
    assert [k["kind"] for k in kinds] == list(KINDS.kinds()) and len(kinds) == 12
    (project,) = [k for k in kinds if k["kind"] == "project"]
    assert project["required"] == ["name", "status"]
    (status,) = [f for f in project["fields"] if f["name"] == "status"]  # type: ignore[attr-defined]
    assert status["values"] == ["idea", "active", "paused", "done", "abandoned"]


# -- supersede: the kind of a fact never changes -------------------------------------------


def test_a_supersede_keeps_the_kind_and_attributes_unless_given(memory: Memory) -> None:
    old = memory.store("/projects/a", "Project A.", kind="project", attributes=PROJECT)
    new = memory.supersede(old.id, "Project A, renamed.")
    assert new.kind == "project" and new.attributes == PROJECT
    newer = memory.supersede(new.id, "Done.", attributes={**PROJECT, "status": "done"})
    assert newer.attributes == {**PROJECT, "status": "done"}
    assert memory.show(old.id).fact.kind == "project"  # history keeps every kind


def test_a_misclassified_fact_is_superseded_by_a_fact_of_another_kind(memory: Memory) -> None:
    wrong = memory.store(
        "/people/alice", "Alice, a place?", kind="location", attributes={"name": "Alice"}
    )
    with pytest.raises(InvalidAttribute, match=r"person\.full_name is required"):
        memory.supersede(wrong.id, "Alice is a person.", kind="person")
    right = memory.supersede(
        wrong.id, "Alice is a person.", kind="person", attributes={"full_name": "Alice Liddell"}
    )
    assert right.kind == "person" and right.supersedes_id == wrong.id
    old = memory.show(wrong.id).fact
    assert old.kind == "location" and old.state == "superseded"
    assert memory.find("location", {"name": "Alice"}) == []
    assert [f.id for f in memory.find("person", {"full_name": "Alice Liddell"})] == [right.id]
    with pytest.raises(InvalidKind):
        memory.supersede(right.id, "?", kind="martian")


# -- update ------------------------------------------------------------------------------


def test_an_update_is_a_sparse_validated_event(memory: Memory) -> None:
    fact = memory.store(
        "/projects/a", "A.", kind="project", attributes={**PROJECT, "summary": "first"}
    )
    updated = memory.update(fact.id, {"status": "Paused", "summary": None}, reason="on hold")
    assert updated.id == fact.id and updated.attributes == {**PROJECT, "status": "paused"}
    last = memory.history(fact.id)[-1]
    assert isinstance(last.body, FactAttributesUpdated) and last.reason == "on hold"
    assert last.body.changes == {"status": "paused", "summary": None}
    assert last.body.kind_version == 1
    before = _event_count(memory)
    assert memory.update(fact.id, {"status": "paused"}).attributes == updated.attributes
    assert _event_count(memory) == before  # nothing changed: nothing written
    for changes, message in [
        ({"name": None}, "project.name is required and cannot be removed"),
        ({"status": "busy"}, "'busy' is not one of"),
        ({"colour": "red"}, "has no attribute 'colour'"),
        ({}, "give at least one attribute"),
    ]:
        with pytest.raises(InvalidAttribute, match=message):
            memory.update(fact.id, changes)
    assert _event_count(memory) == before
    assert memory.verify() == []


def test_only_an_active_fact_is_updated(memory: Memory) -> None:
    fact = memory.store("/projects/a", "A.", kind="project", attributes=PROJECT)
    newer = memory.supersede(fact.id, "A again.")
    with pytest.raises(Conflict, match="is superseded; only an active fact"):
        memory.update(fact.id, {"status": "done"})
    memory.forget(newer.id, reason="gone")
    memory.forget(fact.id, reason="gone too")
    with pytest.raises(Conflict, match="is forgotten"):
        memory.update(newer.id, {"status": "done"})


def test_updating_a_fact_statement(memory: Memory) -> None:
    fact = memory.store("/notes", "Narrative.")
    assert memory.update(fact.id, {"statement": "The claim."}).attributes == {
        "statement": "The claim."
    }
    assert memory.update(fact.id, {"statement": "Narrative."}).attributes == {}  # derived again
    assert memory.verify() == []


def test_an_update_needs_what_a_supersede_needs(memory: Memory) -> None:
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    memory.policy_add("p", ["bob", "path:/*", "write", "allow"])
    memory.policy_add("p", ["bob", "tag:owner=bob", "delete", "allow"])  # bob's own facts
    fact = memory.store("/projects/a", "A.", kind="project", attributes=PROJECT)
    bob = memory.as_subject("bob")
    before = _event_count(memory)
    with pytest.raises(AccessDenied, match="delete"):
        bob.update(fact.id, {"status": "done"})
    with pytest.raises(AccessDenied, match="delete"):
        bob.supersede(fact.id, "mine now")
    assert _event_count(memory) == before
    own = bob.store("/projects/b", "B.", kind="project", attributes=PROJECT)
    assert bob.update(own.id, {"status": "done"}).attributes["status"] == "done"


# -- find --------------------------------------------------------------------------------


def test_find_matches_typed_equality_live_facts_oldest_first(
    memory: Memory, clock: FixedClock
) -> None:
    made = []
    for i, status in enumerate(["active", "paused", "active", "active"]):
        clock.advance(seconds=1)
        made.append(
            memory.store(
                f"/projects/p{i}",
                f"P{i}.",
                kind="project",
                attributes={"name": f"p{i}", "status": status},
            )
        )
    ids = [f.id for f in made]
    assert [f.id for f in memory.find("project", {"status": "active"})] == [ids[0], ids[2], ids[3]]
    assert [f.id for f in memory.find("project", ["status=ACTIVE", "name=p2"])] == [ids[2]]
    assert [f.id for f in memory.find("Project", "status=paused")] == [ids[1]]
    assert [f.id for f in memory.find("project", {"status": "active"}, limit=1)] == [ids[0]]
    assert [f.id for f in memory.find("project", {}, under="/projects/p3")] == [ids[3]]
    memory.forget(ids[0], reason="gone")
    clock.advance(seconds=1)
    newer = memory.supersede(ids[2], "P2 again.")
    got = memory.find("project", {"status": "active"})
    assert [f.id for f in got] == [ids[3], newer.id]
    assert got[0].attributes == {"name": "p3", "status": "active"}
    assert memory.find("project", {"summary": ""}) == memory.find("project")  # no value


def test_find_coerces_values_by_field_type(memory: Memory) -> None:
    tea = memory.store(
        "/prefs/tea",
        "Likes tea.",
        kind="preference",
        attributes={"polarity": "likes", "strength": 0.5},
    )
    mail_attrs = {"channel": "email", "value": "a@b.c", "preferred": True}
    mail = memory.store("/contacts/a", "Work mail.", kind="contact", attributes=mail_attrs)
    al = memory.store(
        "/people/al",
        "Al.",
        kind="person",
        attributes={"full_name": "Alan", "aliases": ["Al", "Ally"]},
    )
    trip = memory.store(
        "/events/trip",
        "A trip.",
        kind="event",
        attributes={"occurred_at": "2026-03-01T10:00:00+01:00"},
    )
    assert [f.id for f in memory.find("preference", ["strength=0.5"])] == [tea.id]
    assert memory.find("preference", ["strength=0.6"]) == []
    assert [f.id for f in memory.find("contact", ["preferred=yes"])] == [mail.id]
    assert memory.find("contact", ["preferred=false"]) == []
    assert [f.id for f in memory.find("person", ["aliases=Al"])] == [al.id]
    assert [f.id for f in memory.find("person", ["aliases=Ally,Al"])] == [al.id]
    assert memory.find("person", ["aliases=Bob"]) == []
    assert [f.id for f in memory.find("event", ["occurred_at=2026-03-01T09:00:00Z"])] == [trip.id]
    for where, message in [
        (["colour=red"], "project has no attribute 'colour'; its attributes are: name, status"),
        (["status"], "a condition is FIELD=VALUE"),
        (["status=busy"], "is not one of: idea, active"),
        (["target_date=soon"], "is not a date"),
    ]:
        with pytest.raises(InvalidAttribute, match=message):
            memory.find("project", where)
    with pytest.raises(InvalidKind):
        memory.find("martian")


def test_find_reads_through_the_access_filter(memory: Memory) -> None:
    memory.policy_add("p", ["bob", "path:/shared/*", "read", "allow"])
    shared = memory.store("/shared/p", "Shared.", kind="project", attributes=PROJECT)
    memory.store("/private/p", "Private.", kind="project", attributes=PROJECT)
    memory.store(
        "/shared/q",
        "Hidden by tag.",
        kind="project",
        attributes=PROJECT,
        tags={"visibility": "private"},
    )
    memory.policy_add("p", ["bob", "tag:visibility=private", "read", "deny"])
    bob = memory.as_subject("bob")
    assert [f.id for f in bob.find("project", {"status": "active"})] == [shared.id]
    assert len(memory.find("project", {"status": "active"})) == 3


def test_find_by_a_hot_field_uses_its_index(memory: Memory) -> None:
    for i in range(5):
        memory.store(
            f"/p/{i}", "P.", kind="project", attributes={"name": f"p{i}", "status": "idea"}
        )
    for kind, fields in HOT_FIELDS.items():
        for field in fields:
            plan = _rows(
                memory.db_path,
                f"EXPLAIN QUERY PLAN SELECT id FROM view_{kind} f WHERE f.{field} = ?",
                "x",
            )
            assert any(f"facts_{kind}_{field}" in str(r) for r in plan), (kind, field, plan)


# -- purge, rebuild, verify ------------------------------------------------------------------


def test_purge_redacts_the_attributes_of_every_event(memory: Memory) -> None:
    fact = memory.store(
        "/people/x",
        "X.",
        kind="person",
        attributes={"full_name": f"Agent {SECRET}", "notes": SECRET},
    )
    memory.update(fact.id, {"notes": f"still {SECRET}", "aliases": [SECRET]})
    memory.purge(fact.id, reason="erase")
    payloads = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", fact.id)
    assert len(payloads) == 3 and all(SECRET not in p[0] for p in payloads)
    row = _rows(memory.db_path, "SELECT attributes, kind_version FROM facts WHERE id = ?", fact.id)
    assert row == [(None, None)]
    assert memory.find("person") == []
    assert memory.rebuild() > 0 and memory.verify() == []
    assert all(SECRET not in str(r) for r in _rows(memory.db_path, "SELECT * FROM view_person"))


def test_rebuild_and_verify_after_updates_keep_views_and_indexes(
    memory: Memory, clock: FixedClock
) -> None:
    facts = []
    for i in range(4):
        clock.advance(seconds=1)
        facts.append(
            memory.store(
                f"/g/{i}",
                f"Goal {i}.",
                kind="goal",
                attributes={"statement": f"goal {i}", "status": "active"},
            )
        )
    memory.update(facts[1].id, {"status": "achieved", "horizon": "short"})
    memory.update(facts[1].id, {"horizon": None})
    memory.update(facts[2].id, {"status": "dropped"})
    before = _rows(memory.db_path, "SELECT * FROM view_goal ORDER BY id")
    index_sql = "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"
    indexes = _rows(memory.db_path, index_sql)
    assert memory.verify() == []
    memory.rebuild()
    assert memory.verify() == []
    assert _rows(memory.db_path, "SELECT * FROM view_goal ORDER BY id") == before
    assert _rows(memory.db_path, index_sql) == indexes
    active = [f.id for f in memory.find("goal", {"status": "active"})]
    assert active == [facts[0].id, facts[3].id]
    assert memory.show(facts[1].id).fact.attributes == {"statement": "goal 1", "status": "achieved"}


# -- migration 0012 ----------------------------------------------------------------------------


def test_migration_0012_on_a_blank_memory_makes_a_view_per_kind(memory: Memory) -> None:
    assert "0012_kind_attributes" in memory.migrations_applied
    views = {
        r[0]
        for r in _rows(
            memory.db_path,
            "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'view_%'",
        )
    }
    assert views == {f"view_{k}" for k in KINDS.kinds()}
    cols = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(view_project)")]
    assert cols[-4:] == ["name", "status", "summary", "target_date"]
    assert "kind_version" in [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(facts)")]


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_migrates_and_reads_legacy_kinds(old_memory: Memory) -> None:
    mem = old_memory
    assert "0012_kind_attributes" in mem.migrations_applied
    assert mem.verify() == []
    kinds = dict(_rows(mem.db_path, "SELECT kind, count(*) FROM facts GROUP BY kind"))
    assert set(kinds) == {"fact", "note"}
    (note_id,) = [r[0] for r in _rows(mem.db_path, "SELECT id FROM facts WHERE kind = 'note'")]
    note = mem.show(note_id).fact
    assert note.kind == "note" and note.attributes == {}  # a kind this build lacks: none
    with pytest.raises(InvalidKind, match="of kind 'note', which has no attributes"):
        mem.update(note.id, {"statement": "x"})
    with pytest.raises(InvalidKind):
        mem.find("note")
    fixed = mem.supersede(note.id, "An imported note, now a fact.", kind="fact")
    assert fixed.kind == "fact"
    facts = mem.find("fact")
    assert fixed.id in {f.id for f in facts} and all(f.kind == "fact" for f in facts)
    sqlite = mem.find("fact", {"statement": "The memory lives in one SQLite file."})
    assert len(sqlite) == 1 and sqlite[0].attributes == {}
    mem.update(sqlite[0].id, {"statement": "SQLite, one file."})
    assert mem.rebuild() > 0 and mem.verify() == []


# -- two writers -------------------------------------------------------------------------------


def test_two_writers_updating_one_fact_both_land_in_log_order(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(db_path, clock=clock) as a, Memory.open(db_path, clock=clock) as b:
        fact = a.store("/projects/a", "A.", kind="project", attributes=PROJECT)
        loads = after_first_load(
            a, monkeypatch, lambda: b.update(fact.id, {"status": "paused", "summary": "b"})
        )
        got = a.update(fact.id, {"status": "done"})
        assert len(loads) == 2  # a's first append met b's event and ran again
        assert got.attributes == {**PROJECT, "status": "done", "summary": "b"}
        changes = [e.body.changes for e in a.history(fact.id)[1:]]  # type: ignore[attr-defined]
        assert changes == [{"status": "paused", "summary": "b"}, {"status": "done"}]
        assert a.verify() == []


def test_a_forget_between_load_and_append_makes_the_update_refuse(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(db_path, clock=clock) as a, Memory.open(db_path, clock=clock) as b:
        fact = a.store("/projects/a", "A.", kind="project", attributes=PROJECT)
        after_first_load(a, monkeypatch, lambda: b.forget(fact.id, reason="gone"))
        with pytest.raises(Conflict, match="is forgotten"):
            a.update(fact.id, {"status": "done"})
        assert [e.type for e in a.history(fact.id)] == ["FactStored", "FactForgotten"]
