"""Typed links, the walk, merge and the dangling report, on both sides (local and over
REST): the same results and the same exception classes (decisions 0052–0054)."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import AccessDenied, Conflict, InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli.remote import LocalOnly


def _people(alice: MemoryAPI) -> tuple[str, str, str, str]:
    person = alice.store(
        "/people/ada",
        "Ada Lovelace.",
        kind="person",
        attributes={"full_name": "Ada Lovelace", "aliases": ["Ada"]},
    ).id
    org = alice.store(
        "/orgs/engine",
        "The Analytical Engine team.",
        kind="organization",
        attributes={"name": "Engine"},
    ).id
    note = alice.store("/notes/n1", "Ada wrote the first program. See [[/orgs/engine]].").id
    place = alice.store(
        "/places/london", "London.", kind="location", attributes={"name": "London"}
    ).id
    return person, org, note, place


def test_link_then_walk_it_both_ways_and_by_inverse_name(alice: MemoryAPI) -> None:
    person, org, note, place = _people(alice)
    made = alice.link(person, "works_at", org, reason="her employer")
    assert (made.source_id, made.relation, made.target_id) == (person, "works_at", org)
    alice.link(note, "about", person)
    alice.link(org, "located_in", place)

    graph = alice.links(person)
    assert graph.root.id == person
    assert {(n.fact.id, n.depth) for n in graph.nodes} == {(org, 1), (note, 1)}
    names = {(s.name, s.to_id) for s in graph.steps}
    assert names == {("works_at", org), ("subject_of", note)}

    deeper = alice.links(person, depth=2)
    assert [n.depth for n in deeper.nodes] == [1, 1, 2]
    assert deeper.nodes[-1].fact.id == place

    assert [n.fact.id for n in alice.links(person, relation="subject_of").nodes] == [note]
    assert [n.fact.id for n in alice.links(org, relation="employs").nodes] == [person]
    assert [n.fact.id for n in alice.links(person, direction="out").nodes] == [org]
    assert [n.fact.id for n in alice.links(person, direction="in").nodes] == [note]
    assert alice.links(note).content_links == ("/orgs/engine",)
    assert alice.history(person)[-1].type == "FactLinked"


def test_a_cycle_ends_and_a_symmetric_link_is_stored_once(alice: MemoryAPI) -> None:
    a = alice.store("/c/a", "A.").id
    b = alice.store("/c/b", "B.").id
    c = alice.store("/c/c", "C.").id
    first = alice.link(b, "relates_to", a)
    assert (first.source_id, first.target_id) == (min(a, b), max(a, b))
    with pytest.raises(Conflict):
        alice.link(a, "relates_to", b)  # the same link, named from the other end
    alice.link(b, "relates_to", c)
    alice.link(c, "relates_to", a)
    graph = alice.links(a, depth=5)
    assert sorted(n.fact.id for n in graph.nodes) == sorted([b, c])
    assert len(graph.steps) == 3  # each link once
    taken = alice.unlink(a, "relates_to", b)
    assert taken == first
    assert sorted(n.fact.id for n in alice.links(a).nodes) == [c]


@pytest.mark.parametrize(
    ("relation", "error"),
    [("knows", InvalidInput), ("subject_of", InvalidInput), ("owned_by", InvalidInput)],
)
def test_bad_links_are_refused_and_nothing_is_written(
    alice: MemoryAPI, relation: str, error: type[Exception]
) -> None:
    person, org, _, _ = _people(alice)
    before = len(alice.history(person))
    with pytest.raises(error):
        alice.link(person, relation, org)
    with pytest.raises(InvalidInput):
        alice.link(person, "about", person)  # no self-link
    with pytest.raises(NotFound):
        alice.link(person, "about", "01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    with pytest.raises(NotFound):
        alice.unlink(person, "about", org)
    assert len(alice.history(person)) == before


def test_a_link_to_a_fact_the_subject_may_not_read_is_no_fact(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    hidden = alice.store("/secret", "Alice only.", visibility="restricted:alice").id
    mine = bob.store("/bob/note", "Bob's note.").id
    with pytest.raises(NotFound, match=f"no fact with id {hidden}"):
        bob.link(mine, "about", hidden)
    seen = alice.store("/shared/x", "Seen by all.", tags=["visibility=public"]).id
    alice.link(seen, "relates_to", hidden)
    assert hidden not in [n.fact.id for n in bob.links(seen).nodes]
    assert bob.links(seen).steps == ()
    with pytest.raises(NotFound):
        bob.links(hidden)


def test_merge_keeps_the_survivor_and_links_follow_it(alice: MemoryAPI) -> None:
    survivor = alice.store(
        "/people/ada",
        "Ada.",
        kind="person",
        attributes={"full_name": "Ada Lovelace", "aliases": ["Ada"]},
        evidence=["quote:Ada wrote it"],
    ).id
    source = alice.store(
        "/people/augusta",
        "Augusta.",
        kind="person",
        attributes={"full_name": "Augusta Ada King", "aliases": ["Countess of Lovelace"]},
        evidence=["uri:https://example.org/ada"],
    ).id
    note = alice.store("/notes/n", "Augusta's notes on the engine.").id
    alice.link(note, "about", source)

    kept = alice.merge(survivor, source, reason="one person")
    assert kept.id == survivor
    assert kept.attributes["aliases"] == ["Ada", "Countess of Lovelace", "Augusta Ada King"]
    detail = alice.show(survivor)
    assert [e.value for e in detail.evidence] == ["Ada wrote it", "https://example.org/ada"]
    assert alice.show(source).fact.state == "forgotten"
    assert [n.fact.id for n in alice.links(note).nodes] == [survivor]  # resolved
    assert [n.fact.id for n in alice.links(survivor, relation="subject_of").nodes] == [note]
    assert {e.type for e in alice.history(source)} >= {"FactForgotten"}
    assert alice.history(survivor)[-2:][0].type == "FactMerged"


def test_bad_merges_are_refused_and_nothing_is_written(alice: MemoryAPI) -> None:
    person, org, _, _ = _people(alice)
    with pytest.raises(InvalidInput):
        alice.merge(person, org, reason="no")  # different kinds
    with pytest.raises(InvalidInput):
        alice.merge(person, person, reason="no")  # into itself
    with pytest.raises(InvalidInput):
        alice.merge(person, org, reason=" ")  # a reason is required
    assert alice.show(org).fact.state == "active"
    assert [e.type for e in alice.history(person)] == ["FactStored"]


def test_a_merge_needs_the_rights_on_both(alice: MemoryAPI, bob: MemoryAPI, memory: Memory) -> None:
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    a = alice.store("/people/a", "A.", kind="person", attributes={"full_name": "A"}).id
    b = alice.store("/people/b", "B.", kind="person", attributes={"full_name": "B"}).id
    with pytest.raises(AccessDenied):
        bob.merge(a, b, reason="not his")


def test_dangling_links_are_listed_and_local_only(alice: MemoryAPI, side: str) -> None:
    note = alice.store("/n", "A note.").id
    gone = alice.store("/g", "Gone soon.").id
    alice.link(note, "about", gone)
    alice.forget(gone, reason="wrong")
    assert alice.links(note).nodes == ()  # a dead end is skipped
    if side == "local":
        (d,) = alice.dangling_links()
        assert (d.source_id, d.relation, d.target_id, d.target_state) == (
            note,
            "about",
            gone,
            "forgotten",
        )
        alice.unlink(note, "about", gone)  # a dangling link can be taken off
        assert alice.dangling_links() == []
    else:
        with pytest.raises(LocalOnly):
            alice.dangling_links()


def test_a_relationship_is_found_by_subject_and_object_and_has_the_spine(
    alice: MemoryAPI,
) -> None:
    person, org, _, _ = _people(alice)
    rel = alice.store(
        "/rel/ada-engine",
        "Ada advises the Engine team.",
        kind="relationship",
        attributes={
            "subject_id": person,
            "predicate": "advises",
            "object_id": org,
            "since": "1842-01-01",
        },
        evidence=["quote:per the letters"],
    )
    assert [f.id for f in alice.links(person).relationships] == [rel.id]
    assert [f.id for f in alice.links(org).relationships] == [rel.id]
    up = alice.confirm(rel.id, evidence="document:letter 12")
    assert up.confidence > rel.confidence
    down = alice.contradict(rel.id, reason="the letters say otherwise")
    assert down.confidence < up.confidence
    dated = alice.update(rel.id, {"until": "1843-12-31"})
    assert dated.attributes["until"] == "1843-12-31"
    with pytest.raises(InvalidInput):
        alice.update(rel.id, {"until": "1800-01-01"})  # before since
    assert alice.find("relationship", {"subject_id": person})[0].id == rel.id
