"""The history context, the timeline, the history search and memory-as-history's link tools on
both sides (a local memory and the remote client); a memory a subject may not read is
no hit, no evidence and no place on its timeline."""

from __future__ import annotations

import pytest

from embornal.errors import InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI


def test_context_timeline_search_and_links_on_both_sides(alice: MemoryAPI) -> None:
    old = alice.remember(
        "Comet deadline: March 4.",
        event_at="2025-03-01T09:00:00Z",
        session="comet:1",
        session_position=0,
    )
    assert old.event_at is not None and old.session_position == 0
    new = alice.remember(
        "Comet deadline changed to April 10.", session="comet:2", session_position=0
    ).fact.id
    fixed = alice.chronicle.set_history_context(
        new,
        event_at="2025-03-10T09:00:00Z",
        session="comet:2",
        session_position=0,
        reason="from the notice",
    )
    assert fixed.event_at is not None and fixed.event_at.day == 10
    cause = alice.remember(
        "Review found a missing signature.", session="comet:2", session_position=1
    ).fact.id
    line = alice.chronicle.timeline()
    assert [e.fact.id for e in line] == [old.fact.id, new, cause]
    assert (line[2].event_at, line[2].session_id) == (None, "comet:2")
    march = alice.chronicle.timeline(start="2025-03-05T00:00:00Z", order="desc")
    assert [e.fact.id for e in march] == [new]
    link = alice.chronicle.link_memories(new, old.fact.id, "updates", reason="revised")
    assert link.relation == "supersedes"
    (hit,) = alice.chronicle.search_history("April", expand=1)
    assert [(e.entry.fact.id, e.via) for e in hit.evidence] == [
        (old.fact.id, "link"),
        (cause, "session"),
    ]
    assert [n.fact.id for n in alice.chronicle.memory_links(new).nodes] == [old.fact.id]
    alice.chronicle.unlink_memories(new, old.fact.id, "updates", reason="wrong")
    assert alice.chronicle.memory_links(new).nodes == ()
    assert alice.chronicle.memory_links(new).links == ()
    (made,) = alice.chronicle.memory_links(old.fact.id, include_retired=True).links
    assert (made.source_id, made.reason, made.retirement_reason) == (new, "revised", "wrong")
    assert made.retired_at is not None and made.linked_at <= made.retired_at
    with pytest.raises(InvalidInput, match="related"):  # the allowed names, on both sides
        alice.chronicle.link_memories(new, old.fact.id, "causes")
    with pytest.raises(InvalidInput):
        alice.chronicle.timeline(start="2025-03-10", end="2025-03-01")


def test_what_a_subject_may_not_read_is_not_on_its_timeline(
    alice: MemoryAPI, bob: MemoryAPI
) -> None:
    mine = alice.remember(
        "Alice's private plan.",
        path="/private/alice",
        event_at="2025-03-02T00:00:00Z",
        session="shared:1",
        session_position=1,
    ).fact.id
    shared = bob.remember(
        "The shared plan.", event_at="2025-03-01T00:00:00Z", session="shared:1", session_position=0
    ).fact.id
    assert mine in [e.fact.id for e in alice.chronicle.timeline(limit=50)]
    assert [e.fact.id for e in bob.chronicle.timeline(limit=50)] == [shared]
    assert bob.chronicle.timeline(session="shared:1") != [] and all(
        e.fact.id != mine for e in bob.chronicle.timeline(session="shared:1")
    )
    hits = bob.chronicle.search_history("plan", expand=3)
    seen = {h.entry.fact.id for h in hits} | {e.entry.fact.id for h in hits for e in h.evidence}
    assert mine not in seen and shared in seen
    with pytest.raises(NotFound):
        bob.chronicle.set_history_context(mine, reason="x")
    with pytest.raises(NotFound):
        bob.chronicle.memory_links(mine)
