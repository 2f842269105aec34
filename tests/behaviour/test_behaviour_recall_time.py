"""``recall(now=...)`` on both sides (local Memory, remote client): the same order and
the same explanation parts; a bad ``now`` is the same error."""

from __future__ import annotations

import pytest

from embornal.domain.recall.ranking import ENTITY_WEIGHT, TEMPORAL_WEIGHT
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


def test_the_words_asking_for_an_order_do_not_match_as_keywords(alice: MemoryAPI) -> None:
    """ "from earliest to latest" is the answer's form: a fact that holds "order" and
    "latest" is no nearer to the museums (decision 0161)."""
    museum = alice.store("/alice/chat/s1", "We visited the science museum downtown.")
    alice.store("/alice/chat/s2", "The latest order of books arrived: the earliest one is torn.")
    hits = alice.recall(
        "What is the order of the museums I visited, from earliest to latest?",
        mode="keyword",
        reinforce=False,
    )
    assert hits[0].fact.id == museum.id
    assert set(hits[0].parts.matched_terms) == {"museum", "visit"}


def test_a_time_named_reads_the_event_time_of_the_history_context(alice: MemoryAPI) -> None:
    told = alice.store("/alice/notes", "The kiln cracked a bowl.", at="2026-11-30T10:00:00Z")
    plain = alice.store("/alice/notes", "The kiln fired a bowl.", at="2026-11-30T11:00:00Z")
    alice.chronicle.set_history_context(told.id, event_at="2026-05-09T10:00:00Z", reason="told")
    hits = alice.recall("kiln bowl in May", now=ASKED, mode="keyword", reinforce=False)
    assert hits[0].fact.id == told.id
    assert hits[0].parts.temporal == pytest.approx(TEMPORAL_WEIGHT)
    assert next(h for h in hits if h.fact.id == plain.id).parts.temporal == 0.0


def test_names_in_the_query_are_the_same_on_both_sides(alice: MemoryAPI) -> None:
    joanna = alice.store("/alice/chat/s1", "Joanna: my hobbies are hiking and writing.")
    alice.store("/alice/chat/s2", "Nate: my hobbies are gaming and turtles.")
    hits = alice.recall("What are Joanna's hobbies?", mode="keyword", reinforce=False)
    assert hits[0].fact.id == joanna.id
    assert hits[0].parts.entity == pytest.approx(ENTITY_WEIGHT)
    assert hits[0].parts.entities == ("joanna",)
