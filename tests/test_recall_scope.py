"""Recall for a subject that reads part of the memory: FTS5's statistics count every fact,
so the raw bm25 is kept from it, and what it is shown does not follow the hidden facts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FakeEmbedder

MODES = ["keyword", "hybrid"]


@pytest.fixture
def mem(db_path: Path, clock: FixedClock) -> Iterator[Memory]:
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(64)) as m:
        m.policy_add("p", ["alice", "path:/*", "write", "allow"])
        m.policy_add("p", ["alice", "tag:owner=alice", "read", "allow"])
        m.policy_add("p", ["root", "path:/*", "read", "allow"])
        yield m


def _private(mem: Memory, count: int, text: str = "the launch slipped, launch again") -> None:
    for i in range(count):
        mem.store(f"/private/{i % 3}", f"{text} ({i})")


@pytest.mark.parametrize("mode", MODES)
def test_a_scoped_subject_never_gets_the_raw_bm25(mem: Memory, mode: str) -> None:
    alice = mem.as_subject("alice")
    alice.store("/plans", "the launch date is Friday")
    alice.store("/plans", "launch party after the launch")
    _private(mem, 4)
    hits = alice.recall("launch date", mode=mode, reinforce=False)
    assert len(hits) == 2
    for hit in hits:
        assert hit.parts.bm25 is None
        assert hit.parts.keyword is not None  # the rescaled score stays
        assert hit.parts.as_dict()["bm25"] is None
    # A subject that reads the whole memory (default, or any with path:/* and no deny)
    # gets it, as before.
    for whole in (mem, mem.as_subject("root")):
        seen = whole.recall("launch date", mode=mode, reinforce=False)
        assert seen and all(isinstance(h.parts.bm25, float) for h in seen if h.parts.keyword)


@pytest.mark.parametrize("mode", MODES)
def test_a_single_hit_does_not_move_when_hidden_facts_share_its_words(
    mem: Memory, mode: str
) -> None:
    alice = mem.as_subject("alice")
    alice.store("/plans", "the launch date is Friday")
    shown, raw = [], []
    for more in (0, 1, 5):
        _private(mem, more)
        hits = alice.recall("launch", mode=mode, reinforce=False)
        assert len(hits) == 1
        shown.append((hits[0].score, hits[0].parts))
        # default's raw bm25 for the same fact moves with the private facts (FTS5's
        # statistics): that number is what alice is not given.
        mine = next(
            h for h in mem.recall("launch", reinforce=False) if h.fact.id == hits[0].fact.id
        )
        raw.append(mine.parts.bm25)
    assert shown[0] == shown[1] == shown[2]
    assert shown[0][1].keyword == 1.0 and shown[0][1].bm25 is None
    assert len(set(raw)) == 3
