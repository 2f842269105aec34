"""``similar``: the facts most like one fact, its content as the query, the fact itself
left out and nothing reinforced; the same on both sides."""

from __future__ import annotations

import pytest

from embornal.errors import InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI


def test_the_facts_most_like_one_on_both_sides(alice: MemoryAPI) -> None:
    green = alice.store("/tea/green", "Green tea is brewed at 80 degrees.")
    black = alice.store("/tea/black", "Black tea is brewed with boiling water.")
    coffee = alice.store("/coffee", "Coffee is brewed at 93 degrees.")
    alice.store("/garden", "The roses bloom in June.")
    hits = alice.similar(green.id)
    assert {h.fact.id for h in hits} == {black.id, coffee.id}  # itself left out
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert [h.fact.id for h in alice.similar(green.id, limit=1)] == [hits[0].fact.id]
    assert [h.fact.id for h in alice.similar(green.id[:16], under="/coffee")] == [coffee.id]
    assert alice.show(black.id).fact.recall_count == 0  # nothing is reinforced
    with pytest.raises(InvalidInput):
        alice.similar(green.id, mode="loud")


def test_a_fact_the_subject_may_not_read_is_missing(alice: MemoryAPI, bob: MemoryAPI) -> None:
    private = alice.store("/alice/tea", "Alice brews green tea at 80 degrees.")
    public = alice.store("/shared/tea", "Green tea at 80 degrees.", tags=["visibility=public"])
    with pytest.raises(NotFound):
        bob.similar(private.id)
    assert [h.fact.id for h in bob.similar(public.id)] == []  # alice's private one: not seen
    assert [h.fact.id for h in alice.similar(public.id)] == [private.id]
