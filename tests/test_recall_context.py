"""Recall context: a fact gains from the neighbours on its path that matched the query."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.domain.recall.ranking import (
    NEIGHBOUR_WEIGHTS,
    FusionSettings,
    neighbour_boost,
    on_shared_paths,
    within_reach,
)

DIMS = 64


# -- the maths ------------------------------------------------------------------------------


def test_boost_is_the_weight_times_the_best_matching_neighbour() -> None:
    relevance = {"a": 1.0, "b": 0.25, "c": 0.5}
    near = {"a": [("b",)], "b": [("a", "c")], "c": [("b", "z")]}  # z is no candidate
    boost = neighbour_boost(relevance, near, (0.4,))
    assert boost == pytest.approx({"a": 0.1, "b": 0.4, "c": 0.1})


def test_boost_sums_over_distances() -> None:
    relevance = {"a": 1.0, "b": 0.5, "c": 0.2, "d": 0.0}
    # d sits after c, after b, after a: b is 2 away, a is 3 away (beyond the window).
    near = {"d": [("c",), ("b",)], "a": [("b",), ("c",)]}
    boost = neighbour_boost(relevance, near, (0.4, 0.3))
    assert boost["d"] == pytest.approx(0.4 * 0.2 + 0.3 * 0.5)
    assert boost["a"] == pytest.approx(0.4 * 0.5 + 0.3 * 0.2)
    assert boost["b"] == 0.0 and boost["c"] == 0.0  # no neighbours given


def test_boost_does_not_chain_and_ignores_non_candidates() -> None:
    relevance = {"a": 1.0, "b": 0.0, "c": 0.3}
    near = {"a": [("x",)], "b": [("a",)], "c": [("b",)]}
    boost = neighbour_boost(relevance, near, (0.5,))
    # c's only neighbour scored 0 before any boost: b's own gain does not pass on.
    assert boost == {"a": 0.0, "b": 0.5, "c": 0.0}


def test_zero_weights_give_no_boost() -> None:
    near = {"a": [("b",), ()], "b": [("a",), ()]}
    assert neighbour_boost({"a": 1.0, "b": 1.0}, near, (0.0, 0.0)) == {"a": 0.0, "b": 0.0}


def test_only_candidates_sharing_a_path_with_a_match_need_their_neighbours() -> None:
    paths = {"a": "/chat", "b": "/chat", "c": "/notes", "d": "/todo", "e": "/todo"}
    relevance = {"a": 1.0, "b": 0.5, "c": 0.9, "d": 0.7, "e": 0.0}
    # c is alone on /notes; e's path holds d, which matched; d's only partner e did not.
    assert on_shared_paths(paths, relevance) == ["a", "b", "e"]


def test_candidates_that_cannot_reach_the_top_are_not_looked_up() -> None:
    relevance = {"a": 1.0, "b": 0.9, "c": 0.1, "d": 0.05, "e": 0.02}
    extra = {"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.3, "e": 0.0}
    paths = {"a": "/x", "b": "/y", "c": "/x", "d": "/z", "e": "/z"}
    keys = ["a", "b", "c", "d", "e"]
    # The 2nd best total is 0.9: c can reach 0.1 + 0.7 × 1.0 = 0.8 (no), d 0.35 + 0.035.
    assert within_reach(keys, relevance, extra, paths, 2, 0.7) == ["a", "b"]
    # With room for every candidate nothing is pruned.
    assert within_reach(keys, relevance, extra, paths, 5, 0.7) == keys
    # A bigger possible gain lets c in: 0.1 + 0.9 × 1.0 reaches the bar.
    assert within_reach(keys, relevance, extra, paths, 2, 0.9) == ["a", "b", "c"]


# -- the neighbours -------------------------------------------------------------------------


def test_neighbours_are_the_live_facts_before_and_after_on_the_same_path(
    memory: Memory, clock: FixedClock
) -> None:
    t0 = clock.now()
    first = memory.store("/chat/s1", "one", at=t0)
    second = memory.store("/chat/s1", "two", at=t0 + timedelta(minutes=1))
    gone = memory.store("/chat/s1", "three", at=t0 + timedelta(minutes=2))
    fourth = memory.store("/chat/s1", "four", at=t0 + timedelta(minutes=3))
    elsewhere = memory.store("/chat/s2", "five", at=t0 + timedelta(minutes=1))
    early = memory.store("/chat/s1", "zero", at=t0 - timedelta(minutes=1))  # written last
    memory.forget(gone.id, reason="test")
    store = memory._store  # the store is the unit under test here
    near = store.neighbours([first.id, second.id, fourth.id, elsewhere.id, early.id], reach=2)
    assert near[first.id] == ((early.id, second.id), (fourth.id,))  # time, not write order
    assert near[second.id] == ((first.id, fourth.id), (early.id,))  # forgotten: skipped
    assert near[fourth.id] == ((second.id,), (first.id,))
    assert near[elsewhere.id] == ((), ())  # alone on its path
    assert near[early.id] == ((first.id,), (second.id,))
    assert store.neighbours([first.id])[first.id] == ((early.id, second.id),)


def test_a_superseded_fact_is_no_neighbour(memory: Memory) -> None:
    a = memory.store("/n", "alpha")
    b = memory.store("/n", "beta")
    c = memory.store("/n", "gamma")
    newer = memory.supersede(b.id, "beta two", reason="test")  # written last: after c
    near = memory._store.neighbours([a.id, c.id], reach=2)
    assert near[a.id] == ((c.id,), (newer.id,))
    assert near[c.id] == ((a.id, newer.id), ())


# -- recall -----------------------------------------------------------------------------------


@pytest.fixture
def conversation(memory: Memory, clock: FixedClock) -> dict[str, str]:
    t0 = clock.now() - timedelta(days=1)
    ids = {}
    lines = [
        ("q", "Alice: how was the concert in Lisbon last night"),
        ("a", "Bob: loud, and the concert hall was packed"),
        ("x", "Alice: I have to feed the cat now"),
    ]
    for n, (key, text) in enumerate(lines):
        ids[key] = memory.store("/chat/day1", text, at=t0 + timedelta(minutes=n)).id
    ids["other"] = memory.store("/notes", "the concert tickets came by mail", at=t0).id
    return ids


def test_keyword_recall_lifts_a_fact_whose_neighbour_matched(
    memory: Memory, conversation: dict[str, str]
) -> None:
    hits = memory.recall("concert lisbon", mode="keyword", reinforce=False)
    by_id = {h.fact.id: h for h in hits}
    answer, note = by_id[conversation["a"]], by_id[conversation["other"]]
    assert answer.parts.neighbour is not None and answer.parts.neighbour > 0
    assert note.parts.neighbour == 0.0  # alone on its path
    # The answer's own keyword score is no better than the note's; its context decides.
    assert answer.parts.keyword is not None and note.parts.keyword is not None
    assert answer.parts.keyword <= note.parts.keyword + 1e-9
    ranked = [h.fact.id for h in hits]
    assert ranked.index(conversation["a"]) < ranked.index(conversation["other"])
    assert answer.parts.neighbour >= NEIGHBOUR_WEIGHTS[0] * note.parts.keyword
    assert answer.score == pytest.approx(
        answer.parts.keyword + answer.parts.neighbour + 0.5 * answer.strength
    )


def test_the_weight_can_be_turned_off(db_path: Path, clock: FixedClock) -> None:
    off = FusionSettings(neighbour_weights=())
    with Memory.open(db_path, clock=clock, fusion=off) as mem:
        mem.store("/chat", "Alice: how was the concert")
        mem.store("/chat", "Bob: the concert was loud")
        hits = mem.recall("concert", mode="keyword", reinforce=False)
        assert hits and all(h.parts.neighbour is None for h in hits)


@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_vector_and_hybrid_recall_use_context_too(
    db_path: Path, clock: FixedClock, mode: str
) -> None:
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(DIMS)) as mem:
        a = mem.store("/chat", "Alice: the garden roses bloomed")
        b = mem.store("/chat", "Bob: roses need water daily")
        hits = {h.fact.id: h for h in mem.recall("garden roses", mode=mode, reinforce=False)}
        assert {a.id, b.id} <= hits.keys()
        assert (hits[b.id].parts.neighbour or 0.0) > 0.0
        assert FusionSettings().neighbour_weights == NEIGHBOUR_WEIGHTS


def test_a_hidden_neighbour_gives_nothing(memory: Memory, clock: FixedClock) -> None:
    memory.policy_add("p", ["alice", "path:/*", "write", "allow"])
    memory.policy_add("p", ["alice", "tag:owner=alice", "read", "allow"])
    alice = memory.as_subject("alice")
    t0 = clock.now()
    memory.store("/chat", "Alice: the secret launch date is Friday", at=t0)  # default's
    mine = alice.store("/chat", "Bob: launch sounds good", at=t0 + timedelta(minutes=1))
    hits = alice.recall("secret launch date", mode="keyword", reinforce=False)
    assert [h.fact.id for h in hits] == [mine.id]
    assert hits[0].parts.neighbour == 0.0


def test_explain_names_the_neighbour_part(memory: Memory, conversation: dict[str, str]) -> None:
    hit = next(
        h
        for h in memory.recall("concert lisbon", mode="keyword", reinforce=False)
        if h.fact.id == conversation["a"]
    )
    assert hit.parts.as_dict()["neighbour"] == hit.parts.neighbour


def _alice(mem: Memory) -> Memory:
    mem.policy_add("p", ["alice", "path:/*", "write", "allow"])
    mem.policy_add("p", ["alice", "tag:owner=alice", "read", "allow"])
    return mem.as_subject("alice")


@pytest.mark.parametrize("hidden_text", ["the concert in Lisbon is secret", "payroll is due"])
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_a_hidden_fact_between_two_visible_ones_changes_nothing(
    tmp_path: Path, clock: FixedClock, mode: str, hidden_text: str
) -> None:
    """Places are counted over what the caller reads: a fact it cannot see, written between
    two of its facts, leaves its scores and order as they are with that fact elsewhere."""
    t0 = clock.now() - timedelta(days=1)
    minute = timedelta(minutes=1)
    seen = []
    for between in (True, False):
        with Memory.open(
            tmp_path / f"m{between}.db", clock=clock, embedder=FakeEmbedder(DIMS)
        ) as mem:
            alice = _alice(mem)
            alice.store("/chat", "Alice: the concert in Lisbon last night", at=t0)
            # default's own fact: between alice's two turns, or on a path of its own.
            mem.store("/chat" if between else "/private", hidden_text, at=t0 + minute)
            alice.store("/chat", "Bob: loud, the concert hall was packed", at=t0 + 2 * minute)
            alice.store("/chat", "Alice: I have to feed the cat", at=t0 + 3 * minute)
            alice.store("/notes", "concert tickets came by mail", at=t0)
            hits = alice.recall("concert lisbon", mode=mode, reinforce=False)
            assert all(h.fact.owner == "alice" for h in hits)
            seen.append([(h.fact.content, h.parts) for h in hits])
    with_hidden, without = seen
    assert with_hidden == without
    bob = next(parts for content, parts in with_hidden if content.startswith("Bob"))
    assert bob.neighbour is not None and bob.neighbour > 0.0  # the turn before still counts


def test_neighbours_skip_the_facts_the_caller_cannot_read(
    memory: Memory, clock: FixedClock
) -> None:
    alice = _alice(memory)
    t0 = clock.now()
    first = alice.store("/chat", "one", at=t0)
    hidden = memory.store("/chat", "two", at=t0 + timedelta(minutes=1))
    third = alice.store("/chat", "three", at=t0 + timedelta(minutes=2))
    fourth = alice.store("/chat", "four", at=t0 + timedelta(minutes=3))
    store = memory._store  # the store is the unit under test here
    vis = alice._ctx.scope()
    assert store.neighbours([first.id], reach=2, scope=vis)[first.id] == ((third.id,), (fourth.id,))
    assert store.neighbours([first.id], reach=2)[first.id] == ((hidden.id,), (third.id,))
