"""A bounded keyword search (decision 0110) shows a subject only what it may read: the
window is ranked before the access filter, and hidden facts in it are dropped, not
counted (thresholds lowered so that a few hundred facts hold a heavy term)."""

from __future__ import annotations

import pytest

from embornal import Memory, NewFact
from embornal.domain.recall import keyword_bound


@pytest.fixture
def heavy(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], set[str]]:
    """300 facts holding ``comet`` among 700: the older public, the newest 120 private
    (the best matches of the window); one private fact holds the light word ``zircon``."""
    monkeypatch.setattr(keyword_bound, "HEAVY_DF", 40)
    monkeypatch.setattr(keyword_bound, "WINDOW_POSTINGS", 200)
    memory.store_many([NewFact(f"/sea/s{i % 9}", f"a quiet night at sea {i}") for i in range(400)])
    public = memory.store_many(
        [
            NewFact(
                f"/sky/p{i % 9}",
                f"a comet seen over the hills, night {i}",
                tags=["visibility=public"],
            )
            for i in range(180)
        ]
    )
    private = memory.store_many(
        [NewFact(f"/sky/q{i % 9}", f"comet {i}", tags=["visibility=private"]) for i in range(119)]
        + [NewFact("/sky/secret", "comet zircon", tags=["visibility=private"])]
    )
    memory.token_add("bob")
    return {f.id for f in public}, {f.id for f in private}


def test_a_heavy_query_shows_only_readable_facts(
    memory: Memory, heavy: tuple[set[str], set[str]]
) -> None:
    public, private = heavy
    mine = {h.fact.id for h in memory.recall("comet", limit=10, reinforce=False, mode="keyword")}
    assert mine <= private  # the owner: the short private facts rank first
    bob = memory.as_subject("bob")
    seen = [h.fact.id for h in bob.recall("comet", limit=10, reinforce=False, mode="keyword")]
    assert len(seen) == 10 and set(seen) <= public


def test_a_light_word_only_a_hidden_fact_holds_finds_nothing_hidden(
    memory: Memory, heavy: tuple[set[str], set[str]]
) -> None:
    public, _ = heavy
    bob = memory.as_subject("bob")
    hits = bob.recall("comet zircon", limit=10, reinforce=False, mode="keyword")
    assert hits and {h.fact.id for h in hits} <= public
    assert all("zircon" not in h.fact.content for h in hits)
    assert [h.fact.content for h in bob.recall("zircon", reinforce=False, mode="keyword")] == []
