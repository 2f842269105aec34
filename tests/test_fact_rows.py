"""Facts read back from rows: equal to facts built the ordinary way; ``find`` with
conditions, a subtree and a reader's access filter all at once keeps its order."""

from __future__ import annotations

import dataclasses

import pytest

from embornal import FixedClock, Memory
from embornal.domain.facts.fact import Fact


def _ordinary(fact: Fact) -> Fact:
    return Fact(**{f.name: getattr(fact, f.name) for f in dataclasses.fields(Fact)})


def test_a_fact_from_a_row_is_an_ordinary_frozen_fact(memory: Memory, clock: FixedClock) -> None:
    old = memory.store(
        "/p", "First.", kind="project", attributes={"name": "a", "status": "idea"}, tags=["topic=x"]
    )
    clock.advance(days=1)
    new = memory.supersede(old.id, "Second.")
    memory.recall("Second")
    memory.confirm(new.id)
    reads = [
        memory.show(old.id).fact,
        *memory.find("project", {"name": "a"}),
        *(v.fact for v in memory.cat("/p")),
        *(h.fact for h in memory.recall("Second", reinforce=False)),
    ]
    assert len(reads) == 4
    for fact in reads:
        assert set(vars(fact)) == {f.name for f in dataclasses.fields(Fact)}
        assert fact == _ordinary(fact)
        assert hash(fact) == hash(_ordinary(fact))
        with pytest.raises(dataclasses.FrozenInstanceError):
            fact.content = "changed"  # type: ignore[misc]
    assert reads[0].superseded_by == new.id and reads[0].state == "superseded"
    assert reads[1].last_recall_at is not None and reads[1].last_confirmed_at is not None
    assert reads[1].attributes == {"name": "a", "status": "idea"}


def test_find_with_conditions_a_subtree_and_an_access_filter(
    memory: Memory, clock: FixedClock
) -> None:
    memory.policy_add("p", ["bob", "path:/team/*", "read", "allow"])
    memory.policy_add("p", ["bob", "tag:secret=yes", "read", "deny"])
    made = {}
    for i, (path, status, secret) in enumerate(
        [
            ("/team/a", "active", False),
            ("/team/b", "active", True),
            ("/team/a/x", "active", False),
            ("/other", "active", False),
            ("/team/a", "paused", False),
        ]
    ):
        clock.advance(seconds=1)
        made[i] = memory.store(
            path,
            f"P{i}.",
            kind="project",
            attributes={"name": f"p{i}", "status": status},
            tags=["secret=yes"] if secret else None,
        ).id
    bob = memory.as_subject("bob")
    got = bob.find("project", {"status": "active"}, under="/team")
    assert [f.id for f in got] == [made[0], made[2]]
    assert [f.id for f in bob.find("project", {"status": "active"}, under="/team/a")] == [
        made[0],
        made[2],
    ]
    assert [f.id for f in bob.find("project", ["status=active", "name=p2"], under="/team")] == [
        made[2]
    ]
    assert [f.id for f in memory.find("project", {"status": "active"}, limit=2)] == [
        made[0],
        made[1],
    ]


def test_a_row_names_every_field_of_fact(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    # A field added to Fact that the row builder does not name would send every row
    # through the slower copy of the defaults (a find of 1,000 facts measured it).
    from embornal.storage.common import kind_views

    seen: list[int] = []
    real = kind_views._new_fact

    def counting(values: dict[str, object]) -> Fact:
        seen.append(len(values))
        return real(values)

    monkeypatch.setattr(kind_views, "_new_fact", counting)
    memory.store("/p", "One.", kind="project", attributes={"name": "a", "status": "idea"})
    assert memory.find("project", {"name": "a"})
    assert seen and set(seen) == {len(dataclasses.fields(Fact))}


def test_a_facts_tags_are_one_column_of_its_row_sorted_and_cut_by_a_purge(
    memory: Memory,
) -> None:
    """Migration 0028: the tag text is written with the fact, by key then value, and a
    purge leaves the owner's tag only; the facts read back carry the same tags."""
    fact = memory.store("/p", "Tagged.", tags={"zone": "b", "area": "a"})
    conn = memory._store.conn  # type: ignore[attr-defined]

    def text() -> str:
        row = conn.execute("SELECT tag_text FROM facts WHERE id = ?", (fact.id,)).fetchone()
        return str(row[0])

    assert text() == "area\x1fa\x1eowner\x1fdefault\x1ezone\x1fb"
    assert [str(t) for t in memory.show(fact.id).fact.tags] == [
        "area=a",
        "owner=default",
        "zone=b",
    ]
    memory.purge(fact.id, reason="a secret in a tag")
    assert text() == "owner\x1fdefault"
    assert [str(t) for t in memory.show(fact.id).fact.tags] == ["owner=default"]
    assert memory.verify() == []
