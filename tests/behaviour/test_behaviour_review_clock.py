"""``due_for_review`` marks an overdue interpretation stale only where the subject may
write it (decision 0142): a reader gets the list and changes nothing."""

from __future__ import annotations

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.interfaces.api import MemoryAPI


def test_a_reader_lists_overdue_interpretations_and_marks_none(
    memory: Memory, bob: MemoryAPI, clock: FixedClock
) -> None:
    s = memory.remember("Cedar probably moves to amber.", path="/team/guess", tier="interpretation")
    memory.tag_path("/team/guess", ["visibility=public"])
    narrative = memory.chronicle.narrate("Cedar: amber.", reason="sum", memory_ids=[s.fact.id])
    clock.advance(seconds=1)
    before = memory._store.portability.last_position()
    assert [d.fact.id for d in bob.due_for_review(days=0)] == [s.fact.id]
    assert memory._store.portability.last_position() == before
    view = memory.chronicle.current_narrative()
    assert view.narrative is not None and view.narrative.narrative_id == narrative.narrative_id
    assert [d.fact.id for d in memory.due_for_review(days=0)] == [s.fact.id]
    assert memory.chronicle.current_narrative().narrative is None  # its owner marked it
