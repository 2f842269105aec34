"""Link and merge items of a proposal (decision 0071): an item names two facts, both
loaded and readable, the approval still one transaction with an expected version on
every stream it writes; a link may name the fact a create item of the same proposal
makes, by ``#N`` or by its ``new_id``."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import Conflict, InvalidInput, InvalidLink, InvalidMerge, NotFound

MISSING = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"


def _person(memory: Memory, name: str, **more: object) -> str:
    attrs = {"full_name": name, **more}
    return memory.store(
        f"/people/{name.split()[0].lower()}", f"{name}.", kind="person", attributes=attrs
    ).id


def test_a_create_and_its_links_by_item_number_land_together(memory: Memory) -> None:
    ana, bob = _person(memory, "Ana Lima"), _person(memory, "Bob Stone")
    made = memory.propose(
        [
            {"type": "create", "path": "/notes/lunch", "content": "Lunch with Ana and Bob."},
            {"type": "link", "source": "#1", "relation": "about", "target": ana},
            {"type": "link", "source": "#1", "relation": "about", "target": bob, "reason": "named"},
        ]
    )
    new = made.items[0].fact_id
    assert new is not None
    assert made.items[1].fields["source"] == new and made.items[1].fact_id == new
    assert memory.links(ana).nodes == ()  # a draft links nothing yet
    done = memory.approve(made.id)
    assert [i.applied for i in done.items] == [True, True, True]
    graph = memory.links(new, direction="out")
    assert sorted(n.fact.id for n in graph.nodes) == sorted([ana, bob])
    assert [n.fact.id for n in memory.links(ana, relation="subject_of").nodes] == [new]
    reasons = [e.reason for e in memory.history(new)]
    assert reasons[-1] == f"proposal {made.id} item 3: named"
    assert memory.verify() == []


def test_a_link_may_name_the_new_id_and_a_symmetric_one_is_stored_once(memory: Memory) -> None:
    old = memory.store("/notes/a", "Alpha.")
    made = memory.propose(
        [
            {"type": "create", "path": "/notes/b", "content": "Beta."},
        ]
    )
    new = made.items[0].fact_id
    assert new is not None
    edited = memory.edit_proposal(
        made.id, add=[{"type": "link", "source": new, "relation": "relates_to", "target": old.id}]
    )
    assert len(edited.items) == 2
    memory.approve(made.id)
    assert [n.fact.id for n in memory.links(old.id).nodes] == [new]
    with pytest.raises(Conflict, match=r"item 1: .* exists already"):  # either end named
        memory.propose(
            [{"type": "link", "source": old.id, "relation": "relates_to", "target": new}]
        )


def test_approving_a_link_without_the_create_it_names_is_refused(memory: Memory) -> None:
    ana = _person(memory, "Ana Lima")
    made = memory.propose(
        [
            {"type": "create", "path": "/notes/x", "content": "X."},
            {"type": "link", "source": "#1", "relation": "about", "target": ana},
        ]
    )
    with pytest.raises(InvalidInput, match="item 2 names the fact item 1 creates"):
        memory.approve(made.id, items=["2"])
    assert memory.approve(made.id, items=["1"]).status == "approved"


@pytest.mark.parametrize(
    ("item", "error", "words"),
    [
        (
            {"type": "link", "source": "#2", "relation": "about", "target": "#1"},
            InvalidInput,
            "names no earlier item",
        ),
        (
            {"type": "link", "source": "#1", "relation": "subject_of", "target": "A"},
            InvalidLink,
            "query name",
        ),
        (
            {"type": "link", "source": "#1", "relation": "likes", "target": "A"},
            InvalidLink,
            "unknown relation",
        ),
        (
            {"type": "link", "source": "#1", "relation": "works_at", "target": "A"},
            InvalidLink,
            "may not emit works_at",
        ),
        (
            {"type": "link", "source": "#1", "relation": "about", "target": "#1"},
            InvalidLink,
            "itself",
        ),
        (
            {"type": "link", "source": "#1", "relation": "about", "target": MISSING},
            NotFound,
            "item 2: no fact with id",
        ),
        ({"type": "link", "source": "#1", "target": "A"}, InvalidInput, "'relation'"),
    ],
    ids=["forward", "inverse", "unknown", "emit", "self", "missing", "shape"],
)
def test_a_bad_link_item_refuses_the_proposal(
    memory: Memory, item: dict[str, str], error: type[Exception], words: str
) -> None:
    ana = _person(memory, "Ana Lima")
    raw = {k: (ana if v == "A" else v) for k, v in item.items()}
    with pytest.raises(error, match=words):
        memory.propose([{"type": "create", "path": "/notes/x", "content": "X."}, raw])
    assert memory.proposals() == []


def test_a_merge_item_merges_at_approval(memory: Memory) -> None:
    keep = _person(memory, "Ana Lima", aliases=["Ana"])
    gone = memory.store(
        "/people/ana2", "A. Lima.", kind="person", attributes={"full_name": "A. Lima"}
    ).id
    made = memory.propose(
        [{"type": "merge", "survivor": keep, "source": gone, "reason": "one person"}]
    )
    assert memory.show(gone).fact.state == "active"
    memory.approve(made.id)
    assert memory.show(gone).fact.state == "forgotten"
    assert "A. Lima" in memory.show(keep).fact.attributes["aliases"]
    assert memory.history(gone)[-1].reason == f"proposal {made.id} item 1: one person"
    assert memory.verify() == []


def test_a_bad_merge_item_is_refused(memory: Memory) -> None:
    ana = _person(memory, "Ana Lima")
    note = memory.store("/notes/n", "A note.").id
    with pytest.raises(InvalidMerge, match="into itself"):
        memory.propose([{"type": "merge", "survivor": ana, "source": ana}])
    with pytest.raises(InvalidMerge, match="only facts of one kind"):
        memory.propose([{"type": "merge", "survivor": ana, "source": note}])
    with pytest.raises(InvalidInput, match="one item per fact"):
        memory.propose(
            [
                {"type": "merge", "survivor": ana, "source": note},
                {"type": "archive", "fact_id": note},
            ]
        )


def test_a_fact_changed_meanwhile_stops_a_merge_whole(memory: Memory) -> None:
    keep, gone = _person(memory, "Ana Lima"), _person(memory, "Anna Lima")
    made = memory.propose([{"type": "merge", "survivor": keep, "source": gone}])
    memory.forget(gone, reason="gone")
    with pytest.raises(Conflict, match=r"item 1: fact .* is forgotten"):
        memory.approve(made.id)
    assert memory.show(keep).fact.attributes.get("aliases") is None
    assert memory.proposal(made.id).status == "open"


def test_the_approver_needs_the_rights_of_each_end(memory: Memory) -> None:
    memory.token_add("alice")
    memory.token_add("bob")
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    mine = alice.store("/private/alice", "Alice's own note.")
    shared = alice.store("/private/alice/more", "More of Alice's.")
    theirs = bob.store("/private/bob", "Bob's own note.")
    # bob may not read alice's note: the same "no fact" as a missing one
    with pytest.raises(NotFound, match="item 1: no fact with id"):
        bob.propose(
            [{"type": "link", "source": theirs.id, "relation": "relates_to", "target": mine.id}]
        )
    made = alice.propose(
        [{"type": "link", "source": mine.id, "relation": "about", "target": shared.id}]
    )
    assert bob.proposals() == []  # bob may not read one of its facts
    with pytest.raises(NotFound, match=f"no proposal with id {made.id}"):
        bob.approve(made.id)
    assert alice.approve(made.id).status == "approved"
    assert [n.fact.id for n in alice.links(mine.id).nodes] == [shared.id]


def test_an_edit_may_add_a_link_to_an_earlier_create_by_number(memory: Memory) -> None:
    ana = _person(memory, "Ana Lima")
    made = memory.propose([{"type": "create", "path": "/notes/x", "content": "X."}])
    edited = memory.edit_proposal(
        made.id, add=[{"type": "link", "source": "#1", "relation": "about", "target": ana}]
    )
    assert edited.items[1].fields["source"] == made.items[0].fact_id
    with pytest.raises(InvalidInput, match="names no earlier item"):
        memory.edit_proposal(
            made.id, add=[{"type": "link", "source": "#9", "relation": "about", "target": ana}]
        )
