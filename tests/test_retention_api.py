"""Retention scores from the stored signals, and prune: one archive proposal with each
candidate's score parts as evidence, nothing archived until approved (decisions 0056,
0057)."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.domain.proposals.retention import RETENTION, score
from embornal.errors import InvalidInput


def _scores(memory: Memory) -> dict[str, float | None]:
    return {s.fact_id: s.score for s in memory.retention(lowest=1000)}


def test_the_score_is_the_weighted_sum_of_its_parts(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/notes/a", "A note.")
    clock.advance(days=365)
    (s,) = [x for x in memory.retention(lowest=1000) if x.fact_id == fact.id]
    assert s.recency == pytest.approx(0.5)  # a fact's half-life: 365 days
    assert s.access == 0 and s.centrality == 0 and s.user_weight == 0.5
    assert s.confidence == pytest.approx(0.95 * 0.5)
    total = (
        RETENTION.recency * s.recency
        + RETENTION.confidence * s.confidence
        + RETENTION.user_weight * 0.5
    )
    assert s.score == pytest.approx(total)


def test_signals_move_the_score(memory: Memory, clock: FixedClock) -> None:
    old = memory.store("/notes/old", "An old untouched note.")
    used = memory.store("/notes/used", "A note recalled often about zebras.")
    linked = memory.store("/topics/hub", "A hub note.")
    pinned = memory.store("/notes/pinned", "A pinned note.")
    forever = memory.store("/notes/forever", "A permanent note.", lifetime="permanent")
    for i in range(3):
        memory.store(f"/notes/l{i}", f"See [[/topics/hub]] for more ({i}).")
    memory.pin(pinned.id)
    clock.advance(days=400)
    memory.recall("zebras")
    scores = _scores(memory)
    assert scores[old.id] is not None and scores[used.id] is not None
    assert scores[old.id] < scores[used.id]  # type: ignore[operator]
    assert scores[old.id] < scores[linked.id]  # type: ignore[operator]
    assert scores[pinned.id] is None and scores[forever.id] is None  # exempt
    ordered = [s.fact_id for s in memory.retention(lowest=1000)]
    assert ordered[-2:] == sorted([pinned.id, forever.id])  # the exempt come last
    hub = next(s for s in memory.retention(lowest=1000) if s.fact_id == linked.id)
    assert hub.links_in == 3 and hub.centrality > 0
    memory.set_weight(old.id, 1.0)
    assert _scores(memory)[old.id] > scores[old.id]  # type: ignore[operator]
    assert len(memory.retention(lowest=2)) == 2


def test_the_score_is_pure() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    parts = score(
        kind="event",
        now=now,
        created_at=now,
        last_recall_at=None,
        recall_count=0,
        confidence=1.0,
        last_confirmed_at=None,
        links_in=0,
        user_weight=None,
        exempt=False,
    )
    assert parts.recency == 1.0 and parts.score == pytest.approx(0.35 + 0.25 + 0.05)
    exempt = score(
        kind="event",
        now=now,
        created_at=now,
        last_recall_at=None,
        recall_count=0,
        confidence=1.0,
        last_confirmed_at=None,
        links_in=0,
        user_weight=None,
        exempt=True,
    )
    assert exempt.score is None


def test_prune_proposes_and_deletes_nothing(memory: Memory, clock: FixedClock) -> None:
    old = memory.store("/notes/old", "An old untouched note about walruses.")
    clock.advance(days=900)
    fresh = memory.store("/notes/fresh", "A fresh note.")
    before = len(list(memory._store.read_all()))
    result = memory.prune(threshold=0.2, reason="spring cleaning")
    assert len(list(memory._store.read_all())) == before + 1  # the proposal alone
    assert result.proposal is not None and result.proposal.source == "prune"
    assert result.scored == len(memory.retention(lowest=1000))
    targets = {i.fact_id: i for i in result.proposal.items}
    assert old.id in targets and fresh.id not in targets
    item = targets[old.id]
    assert item.type == "archive" and item.fields["reason"].startswith("retention 0.")
    assert set(item.fields["score"]) == {
        "score",
        "recency",
        "access",
        "centrality",
        "c_eff",
        "user_weight",
    }
    assert result.candidates == len(result.proposal.items)
    assert memory.recall("walruses", reinforce=False)  # still there
    memory.approve(result.proposal.id)
    assert memory.show(old.id).fact.state == "forgotten"
    last = memory.history(old.id)[-1]
    assert last.type == "FactForgotten" and "retention 0." in (last.reason or "")
    assert memory.prune(threshold=0.0).proposal is None
    assert memory.verify() == []


def test_prune_refuses_a_bad_threshold(memory: Memory) -> None:
    for bad in (-0.1, 1.5, "x", True):
        with pytest.raises(InvalidInput, match="threshold must be a number from 0 to 1"):
            memory.prune(threshold=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="limit must be a whole number from 1 to 10000"):
        memory.prune(limit=0)


def test_prune_limit_keeps_the_lowest(memory: Memory, clock: FixedClock) -> None:
    memory.store("/notes/a", "Oldest.")
    clock.advance(days=300)
    memory.store("/notes/b", "Older.")
    clock.advance(days=900)
    result = memory.prune(threshold=0.5, limit=1)
    assert result.proposal is not None
    assert [i.fact_id for i in result.proposal.items] == [memory.retention(lowest=1)[0].fact_id]


def test_an_auto_approved_prune_records_the_rule(db_path: Path, clock: FixedClock) -> None:
    policy = ProposalPolicy(auto_approve_sources=("prune",))
    with Memory.open(db_path, clock=clock, proposals=policy) as memory:
        old = memory.store("/notes/old", "An old note.")
        clock.advance(days=2000)
        result = memory.prune()
        assert result.proposal is not None and result.proposal.status == "approved"
        assert result.proposal.decided_by == "policy:source=prune"
        assert memory.show(old.id).fact.state == "forgotten"


def test_typed_links_count_toward_centrality(memory: Memory) -> None:
    ana = memory.store(
        "/people/ana", "Ana.", kind="person", attributes={"full_name": "Ana Lima"}
    ).id
    notes = [memory.store(f"/notes/{i}", f"Note {i}.").id for i in range(3)]
    for n in notes[:2]:
        memory.link(n, "about", ana)
    memory.link(notes[2], "relates_to", notes[0])  # symmetric: both ends
    memory.store("/notes/wiki", "See [[/people/ana]].")
    by_id = {s.fact_id: s for s in memory.retention(lowest=1000)}
    assert by_id[ana].links_in == 3  # two about links and one [[/path]] link
    assert by_id[notes[0]].links_in == 1 and by_id[notes[2]].links_in == 1
    memory.forget(notes[1], reason="gone")  # a forgotten source counts no more
    assert {s.fact_id: s for s in memory.retention(lowest=1000)}[ana].links_in == 2


def test_a_link_from_a_fact_the_subject_may_not_read_does_not_count(memory: Memory) -> None:
    memory.token_add("alice")
    memory.token_add("bob")
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    mine = bob.store("/private/bob", "Bob's.").id
    other = bob.store("/private/bob/2", "Bob's too.").id
    hidden = alice.store("/private/alice", "Alice's.").id
    bob.link(other, "relates_to", mine)
    memory.link(hidden, "relates_to", mine)  # a person who may read both links them
    (scored,) = [s for s in bob.retention(lowest=100) if s.fact_id == mine]
    assert scored.links_in == 1
