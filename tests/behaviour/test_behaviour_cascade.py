"""The recall cascade, search and search_archive on both sides (a local memory and the
remote client over REST; decisions 0095-0097)."""

from __future__ import annotations

import pytest

from embornal.errors import InvalidInput
from embornal.interfaces.api import MemoryAPI


def test_the_cascade_on_both_sides(alice: MemoryAPI) -> None:
    me = alice.store("/shared/alice", "I am Alice's release assistant.").id
    alice.pin(me, reason="identity")
    focus = alice.store("/shared/alice", "The release branch is release/2.0.").id
    alice.chronicle.canonize(focus, "release", reason="the task")
    alice.chronicle.canonize(me, "release", reason="also the task")
    notes = [alice.store("/shared/alice", f"A release note {i}.").id for i in range(5)]
    alice.chronicle.narrate("Release 2.0 is on track.", reason="summary", memory_ids=[focus])
    answer = alice.chronicle.recall("release", limit=4)
    assert [f.id for f in answer.anchors] == [me]
    assert [e.fact.id for e in answer.canon] == [focus]
    assert len(answer.memories) == 2 and {h.fact.id for h in answer.memories} <= set(notes)
    assert len(answer.hits) == 4  # the ordinary ranking, as recall() gives it
    assert answer.narrative is not None and answer.narrative.content == "Release 2.0 is on track."
    assert answer.narrative_review is None and answer.conflicts == ()
    assert (answer.query, answer.limit, answer.frame) == ("release", 4, None)
    assert [h.fact.id for h in alice.recall("release", limit=4)] == [
        h.fact.id for h in answer.hits
    ]  # Memory.recall keeps its list of hits


def test_search_and_the_archive_on_both_sides(alice: MemoryAPI) -> None:
    anchors = [alice.store("/shared/alice", f"The deploy rule {i}.").id for i in range(3)]
    for fid in anchors:
        alice.pin(fid, reason="identity")
    log = alice.store("/shared/alice", "The deploy log of Monday.").id
    gone = alice.store("/shared/alice", "The deploy log of Sunday.").id
    alice.forget(gone, reason="wrong day")
    found = alice.chronicle.search("deploy", limit=3, mode="keyword")
    assert [f.id for f in found.anchors] == anchors and found.memories == ()
    archive = alice.chronicle.search_archive("deploy", limit=3, mode="keyword")
    assert [h.fact.id for h in archive] == [log]
    with pytest.raises(InvalidInput):
        alice.chronicle.search("   ")


def test_frames_filter_the_cascade_on_both_sides(alice: MemoryAPI) -> None:
    work = alice.remember("A work matter.", frame="work").fact.id
    alice.remember("A home matter.", frame="home")
    answer = alice.chronicle.recall(frame="work")
    assert [h.fact.id for h in answer.memories] == [work]


def test_a_hidden_memory_is_in_no_section(alice: MemoryAPI, bob: MemoryAPI) -> None:
    mine = alice.store("/private/alice", "Alice's private anchor.").id
    alice.pin(mine, reason="identity")
    focus = alice.store("/private/alice", "Alice's private focus.").id
    alice.chronicle.canonize(focus, "secret", reason="focus")
    alice.chronicle.mark_conflict(mine, focus, reason="they disagree")
    alice.chronicle.narrate("Alice's account.", reason="summary", memory_ids=[focus])
    seen = bob.chronicle.recall("private", limit=10)
    ids = [f.id for f in seen.anchors] + [e.fact.id for e in seen.canon]
    ids += [h.fact.id for h in (*seen.memories, *seen.hits)]
    assert mine not in ids and focus not in ids
    assert (seen.conflicts, seen.narrative, seen.narrative_review) == ((), None, None)
    assert bob.chronicle.search_archive("private") == []
    assert [f.id for f in alice.chronicle.recall().anchors] == [mine]


def test_search_archive_filters_by_frame_on_both_sides(alice: MemoryAPI) -> None:
    ops = alice.remember("Outage report of the night.", frame="operations").fact.id
    alice.remember("Outage drill planned.", frame="home")
    found = alice.chronicle.search_archive("outage", frame="operations", mode="keyword")
    assert [h.fact.id for h in found] == [ops]
    assert len(alice.chronicle.search_archive("outage", mode="keyword")) == 2
