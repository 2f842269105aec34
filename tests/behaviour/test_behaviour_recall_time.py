"""``recall(now=...)`` on both sides (local Memory, remote client): the same order and
the same explanation parts; a bad ``now`` is the same error."""

from __future__ import annotations

import pytest

from embornal.domain.ranking import TEMPORAL_WEIGHT
from embornal.errors import InvalidInput
from embornal.interfaces.api import MemoryAPI

ASKED = "2026-12-02T15:00:00Z"  # a Wednesday


def test_times_named_are_read_against_now(alice: MemoryAPI) -> None:
    near = alice.store("/alice/chat/s1", "We went hiking in the hills.", at="2026-11-28T10:00:00Z")
    far = alice.store(
        "/alice/chat/s2", "We went hiking in the hills too.", at="2026-10-03T10:00:00Z"
    )
    hits = alice.recall("hiking hills last weekend", now=ASKED, mode="keyword", reinforce=False)
    assert [h.fact.id for h in hits] == [near.id, far.id]
    assert hits[0].parts.temporal == pytest.approx(TEMPORAL_WEIGHT)
    assert hits[0].parts.time_window == "'last weekend' 2026-11-28..2026-11-30"
    assert hits[1].parts.temporal == 0.0
    other = alice.recall("hiking hills 上个月", now=ASKED, mode="keyword", reinforce=False)
    assert other[0].fact.id == near.id and other[0].parts.time_window is not None
    plain = alice.recall("hiking hills", now=ASKED, mode="keyword", reinforce=False)
    assert {h.parts.temporal for h in plain} == {None}
    with pytest.raises(InvalidInput):
        alice.recall("hiking", now="last week")
