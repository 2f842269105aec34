"""The recall cascade, search and search_archive (decisions 0095-0097)."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.errors import InvalidInput


@pytest.mark.parametrize("flood", [3, 10, 50, 200])
def test_anchors_survive_a_flood(memory: Memory, clock: FixedClock, flood: int) -> None:
    """memory-as-history's usefulness check: one identity memory promoted and pinned, then a flood
    of trivial memories; ``recall(limit=5)`` with no query still returns the identity,
    where a recency-only window of five loses it once the flood fills the window."""
    identity = memory.remember(
        "The user is Ada, a data engineer; I am her assistant.", source="ada", session="s-1"
    )
    memory.promote(identity.fact.id, reason="stated by the user")
    memory.pin(identity.fact.id, reason="who the user is")
    for i in range(flood):
        clock.advance(seconds=30)
        memory.remember(f"Trivial note {i}: the kettle was on at {i % 24}h.", session="s-1")
    clock.advance(seconds=30)
    answer = memory.chronicle.recall(limit=5)
    assert [f.id for f in answer.anchors] == [identity.fact.id]
    assert len(answer.anchors) + len(answer.canon) + len(answer.memories) <= 5
    newest_first = sorted(
        (v.fact for v in memory.cat("/inbox/s-1", limit=1000)),
        key=lambda f: f.created_at,
        reverse=True,
    )
    recency_window = [f.id for f in newest_first[:5]]
    assert (identity.fact.id in recency_window) is (flood < 5)  # the baseline loses it


def _stored(memory: Memory, n: int, text: str, path: str = "/notes") -> list[str]:
    return [memory.store(path, f"{text} number {i}.").id for i in range(n)]


def test_an_anchor_in_the_canon_shows_once_under_anchors(memory: Memory) -> None:
    both = memory.store("/me", "I am the release assistant of team blue.").id
    memory.pin(both, reason="identity")
    memory.chronicle.canonize(both, "release", reason="the task")
    only_canon = memory.store("/notes", "Code freeze on Thursday.").id
    memory.chronicle.canonize(only_canon, "release", reason="the task")
    memory.chronicle.canonize(only_canon, "planning", reason="also here")
    _stored(memory, 5, "An ordinary note")
    answer = memory.chronicle.recall(limit=10)
    ids = [f.id for f in answer.anchors] + [e.fact.id for e in answer.canon]
    ids += [h.fact.id for h in answer.memories]
    assert len(ids) == len(set(ids)) <= 10  # no memory twice, one budget
    assert [f.id for f in answer.anchors] == [both]
    assert [e.fact.id for e in answer.canon] == [only_canon]


def test_limit_is_one_budget_and_the_anchors_are_always_whole(memory: Memory) -> None:
    anchors = _stored(memory, 12, "Who we are")
    for fid in anchors:
        memory.pin(fid, reason="identity")
    _stored(memory, 20, "Something else")
    answer = memory.chronicle.recall(limit=10)
    assert [f.id for f in answer.anchors] == anchors  # 12 > 10: all of them, nothing else
    assert (answer.canon, answer.memories) == ((), ())
    assert len(answer.hits) == 10  # the ordinary ranking as Memory.recall gives it


def test_three_anchors_eight_canon_and_four_memories_in_fifteen(memory: Memory) -> None:
    anchors = _stored(memory, 3, "An anchor")
    for fid in anchors:
        memory.pin(fid, reason="identity")
    canon = _stored(memory, 8, "A canon entry")
    for fid in canon:
        memory.chronicle.canonize(fid, "task", reason="in focus")
    ordinary = _stored(memory, 10, "An ordinary memory")
    answer = memory.chronicle.recall(limit=15)
    assert (len(answer.anchors), len(answer.canon), len(answer.memories)) == (3, 8, 4)
    assert {h.fact.id for h in answer.memories} <= set(ordinary)
    assert answer.limit == 15


def test_frame_filters_every_section(memory: Memory) -> None:
    work = [memory.remember(f"Work matter {i}.", frame="work").fact.id for i in range(3)]
    home = [memory.remember(f"Home matter {i}.", frame="home").fact.id for i in range(3)]
    for fid in (work[0], home[0]):
        memory.promote(fid, reason="kept")
        memory.pin(fid, reason="anchor")
    for fid in (work[1], home[1]):
        memory.promote(fid, reason="kept")
        memory.chronicle.canonize(fid, "now", reason="focus")
    memory.chronicle.mark_conflict(home[1], home[2], reason="they disagree")
    answer = memory.chronicle.recall(limit=10, frame="work")
    assert [f.id for f in answer.anchors] == [work[0]]
    assert [e.fact.id for e in answer.canon] == [work[1]]
    assert [h.fact.id for h in answer.memories] == [work[2]]
    assert {h.fact.id for h in answer.hits} <= set(work)
    assert answer.conflicts == ()
    assert len(memory.chronicle.recall(limit=10, frame="home").conflicts) == 1


def test_the_usable_narrative_or_its_review_notice(memory: Memory) -> None:
    fid = memory.store("/notes", "We ship on Fridays.").id
    memory.chronicle.narrate("The team ships weekly.", reason="summary", memory_ids=[fid])
    shown = memory.chronicle.recall()
    assert shown.narrative is not None and shown.narrative.content == "The team ships weekly."
    assert shown.narrative_review is None
    memory.forget(fid, reason="no longer true")
    withheld = memory.chronicle.recall()
    assert withheld.narrative is None and withheld.narrative_review is not None
    assert withheld.narrative_review.source_issues[0].issue == "forgotten"


def test_stale_interpretations_are_carried(memory: Memory, clock: FixedClock) -> None:
    fid = memory.remember("The outage was probably the cache.", tier="interpretation").fact.id
    assert memory.chronicle.recall().stale_interpretations == ()
    clock.advance(days=31)
    assert [d.fact.id for d in memory.chronicle.recall().stale_interpretations] == [fid]


def test_only_the_ordinary_hits_are_reinforced(memory: Memory) -> None:
    anchor = memory.store("/me", "The assistant of team blue.").id
    memory.pin(anchor, reason="identity")
    note = memory.store("/notes", "The deploy script lives in tools/deploy.").id
    answer = memory.chronicle.recall("deploy script", limit=5)
    assert [h.fact.id for h in answer.memories] == [note]
    assert memory.show(note).fact.recall_count == 1
    assert memory.show(anchor).fact.recall_count == 0


def test_search_archive_is_not_crowded_out_by_anchors(memory: Memory) -> None:
    anchors = _stored(memory, 12, "The deploy rule")
    for fid in anchors:
        memory.pin(fid, reason="identity")
    archive = _stored(memory, 3, "The deploy log", path="/logs")
    found = memory.chronicle.search_archive("deploy", limit=3)
    assert {h.fact.id for h in found} == set(archive)
    assert memory.chronicle.search("deploy", limit=3).memories == ()  # the anchors fill it
    assert all(memory.show(a).fact.recall_count == 0 for a in archive)  # not reinforced


def test_search_checks_each_candidate_again_and_reinforces_nothing(memory: Memory) -> None:
    keep = memory.store("/notes", "The deploy runs at noon.").id
    gone = memory.store("/notes", "The deploy runs at midnight.").id
    memory.forget(gone, reason="wrong")
    answer = memory.chronicle.search("deploy", limit=5)
    assert [h.fact.id for h in answer.memories] == [keep]
    assert memory.show(keep).fact.recall_count == 0
    with pytest.raises(InvalidInput, match="needs a query"):
        memory.chronicle.search("  ")
    with pytest.raises(InvalidInput, match="needs a query"):
        memory.chronicle.search_archive("")


def test_bad_input_is_refused_before_anything_is_read(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="mode"):
        memory.chronicle.recall("x", mode="fuzzy")
    with pytest.raises(InvalidInput, match="limit"):
        memory.chronicle.recall(limit=0)
    with pytest.raises(InvalidInput, match="frame"):
        memory.chronicle.recall(frame="  ")


def test_a_conflict_whose_member_left_recall_is_not_in_it(
    memory: Memory, clock: FixedClock
) -> None:
    """A member superseded or expired since the conflict opened: the conflict (and the
    member's text) stays out of recall; ``list_conflicts`` still has it."""
    a = memory.store("/plan", "The launch is in June.").id
    b = memory.store("/plan2", "The launch is in July.").id
    c = memory.store("/plan3", "The launch is in August.").id
    memory.chronicle.mark_conflict(a, b, reason="two dates")
    memory.chronicle.mark_conflict(a, c, reason="two dates")
    assert len(memory.chronicle.recall().conflicts) == 2
    memory.supersede(b, "The launch is in late June.", reason="closer")
    memory.set_lifetime(c, "ephemeral", reason="a guess")
    clock.advance(days=3)
    answer = memory.chronicle.recall()
    assert answer.conflicts == () and "July" not in repr(answer) and "August" not in repr(answer)
    assert len(memory.chronicle.list_conflicts(resolved=False)) == 2


def test_the_memory_guide_is_not_recalled_but_stays_readable(memory: Memory) -> None:
    """A new memory recalls nothing: the guide under /memory is its manual, read with cat
    or asked for with ``all``, not a memory of work (decision 0154)."""
    assert memory.chronicle.recall().memories == ()
    assert memory.chronicle.recall("store a fact").memories == ()
    assert memory.chronicle.search("recall").memories == ()
    assert memory.chronicle.search_archive("recall") == []
    assert len(memory.cat("/memory")) >= 8
    mine = memory.store("/memory", "Store facts about recall tuning under /memory.")
    assert memory.chronicle.search("recall").memories == ()  # /memory is the guide's place
    found = memory.chronicle.search("recall tuning", all=True).memories
    assert mine.id in [h.fact.id for h in found]  # asked for: there (decision 0154)
