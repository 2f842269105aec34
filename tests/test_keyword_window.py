"""Keyword recall ranks a window of the keyword index and drops hidden facts after: when
the best matches are forgotten or superseded, the window widens until live ones are found."""

from __future__ import annotations

from pathlib import Path

from embornal import FixedClock, Memory


def test_live_matches_are_found_behind_many_forgotten_better_ones(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        # Short facts rank above long ones for the same word (bm25 length norm).
        forgotten = [mem.store(f"/birds/f{i}", f"heron {i}") for i in range(120)]
        live = [
            mem.store(f"/birds/l{i}", f"a grey heron stood in the reeds by the lake, {i}")
            for i in range(5)
        ]
        for fact in forgotten:
            mem.forget(fact.id, reason="test")
        hits = mem.recall("heron", limit=10, reinforce=False, mode="keyword")
        assert {h.fact.id for h in hits} == {f.id for f in live}
        under = mem.recall("heron", limit=10, reinforce=False, mode="keyword", under="/birds")
        assert {h.fact.id for h in under} == {f.id for f in live}


def test_superseded_facts_leave_the_ranking_for_their_successors(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        old = [mem.store(f"/birds/s{i}", f"heron {i}") for i in range(60)]
        new = [mem.supersede(f.id, f"the heron number {i} moved away") for i, f in enumerate(old)]
        hits = mem.recall("heron", limit=60, reinforce=False, mode="keyword")
        assert {h.fact.id for h in hits} == {f.id for f in new}
