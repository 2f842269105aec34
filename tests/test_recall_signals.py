"""Times the query names lift the facts of those times; path diversity spreads the top k;
pseudo-relevance feedback finds the fact the first hits point to.

Small constructed memories (never benchmark data); ``now`` is passed in or the memory's
fixed clock, never the system clock.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.domain.recall.feedback import feedback_terms, mix_feedback
from embornal.domain.recall.ranking import (
    FEEDBACK_WEIGHT,
    TEMPORAL_WEIGHT,
    FusionSettings,
    diversity_penalties,
)
from embornal.errors import InvalidInput

ASKED = "2026-12-02T15:00:00Z"  # a Wednesday


def _at(day: int, month: int = 11) -> datetime:
    return datetime(2026, month, day, 10, tzinfo=UTC)


def _hikes(mem: Memory) -> dict[str, str]:
    stored = mem.store_many(
        [
            NewFact(path="/chat/s1", content="We went hiking in the hills.", at=_at(28)),
            NewFact(path="/chat/s2", content="We went hiking by the lake.", at=_at(3, 10)),
            NewFact(path="/chat/s3", content="We went hiking in the rain.", at=_at(14)),
        ]
    )
    return {f.content.split()[-1].rstrip("."): f.id for f in stored}


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_a_fact_of_the_time_named_comes_first(tmp_path: Path, mode: str) -> None:
    mem = Memory.open(tmp_path / "m.db", embedder=FakeEmbedder(dims=64))
    ids = _hikes(mem)
    hits = mem.recall("where did we go hiking last weekend", now=ASKED, mode=mode, reinforce=False)
    assert hits[0].fact.id == ids["hills"]  # Saturday 28 November
    top = hits[0].parts
    assert top.temporal == pytest.approx(TEMPORAL_WEIGHT)
    assert top.time_window == "'last weekend' 2026-11-28..2026-11-30"
    far = next(h for h in hits if h.fact.id == ids["lake"])
    assert far.parts.temporal == 0.0  # two months off: more than a weekend's width away
    mem.close()


def test_no_time_named_no_part(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    _hikes(mem)
    hits = mem.recall("where did we go hiking", now=ASKED, mode="keyword", reinforce=False)
    assert {h.parts.temporal for h in hits} == {None}
    assert {h.parts.time_window for h in hits} == {None}
    mem.close()


def test_now_defaults_to_the_memory_clock(tmp_path: Path) -> None:
    clock = FixedClock(_at(2, 12))
    mem = Memory.open(tmp_path / "m.db", clock=clock)
    ids = _hikes(mem)
    hits = mem.recall("hiking two weeks ago", mode="keyword", reinforce=False)
    assert hits[0].fact.id == ids["rain"]  # 14 November lies in the week around 18 November
    clock.advance(days=7)  # a week later the same words mean another week
    hits = mem.recall("hiking two weeks ago", mode="keyword", reinforce=False)
    assert hits[0].fact.id == ids["hills"]
    mem.close()


def test_a_weight_of_zero_turns_it_off(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db", fusion=FusionSettings(temporal_weight=0.0))
    _hikes(mem)
    hits = mem.recall("hiking last weekend", now=ASKED, mode="keyword", reinforce=False)
    assert {h.parts.temporal for h in hits} == {None}
    mem.close()


def test_chinese_phrases_work_alike(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    stored = mem.store_many(
        [
            NewFact(path="/chat/a", content="我们去爬山了", at=_at(25)),
            NewFact(path="/chat/b", content="我们去爬山了吗", at=_at(5, 10)),
        ]
    )
    hits = mem.recall("上周去爬山", now=ASKED, mode="keyword", reinforce=False)
    assert hits[0].fact.id == stored[0].id and hits[0].parts.temporal == TEMPORAL_WEIGHT
    mem.close()


def test_a_bad_now_is_one_clear_error_and_nothing_recorded(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    _hikes(mem)
    before = len(mem.history("/chat/s1"))
    with pytest.raises(InvalidInput, match="now must be an ISO-8601 time"):
        mem.recall("hiking", now="last week")
    assert len(mem.history("/chat/s1")) == before
    mem.close()


# -- path diversity --------------------------------------------------------------------------


def test_diversity_penalty_counts_the_better_ones_on_the_path() -> None:
    paths = {"a1": "/a", "a2": "/a", "b1": "/b", "a3": "/a"}
    assert diversity_penalties(["a1", "a2", "b1", "a3"], paths, 0.1) == pytest.approx(
        {"a1": 0.0, "a2": 0.1, "b1": 0.0, "a3": 0.2}
    )
    assert diversity_penalties(["a1", "a2"], paths, 0.0) == {}


def test_diversity_brings_another_path_into_the_top(tmp_path: Path) -> None:
    facts = [
        NewFact(path="/s/one", content=f"the garden party plan part {i}", at=_at(1 + i))
        for i in range(3)
    ]
    facts.append(NewFact(path="/s/two", content="the party was moved", at=_at(20)))
    plain = Memory.open(tmp_path / "a.db", fusion=FusionSettings(neighbour_weights=()))
    plain.store_many(facts)
    top = [h.fact.path for h in plain.recall("garden party plan", limit=2, reinforce=False)]
    assert top == ["/s/one", "/s/one"]
    spread = Memory.open(
        tmp_path / "b.db", fusion=FusionSettings(neighbour_weights=(), path_diversity=1.0)
    )
    spread.store_many(facts)
    hits = spread.recall("garden party plan", limit=2, reinforce=False)
    assert [h.fact.path for h in hits] == ["/s/one", "/s/two"]
    assert hits[0].parts.diversity == 0.0 and hits[1].parts.diversity == 0.0
    assert all(h.score == pytest.approx(h.parts.total) for h in hits)
    plain.close()
    spread.close()


def test_reinforcing_recall_with_now_still_lifts_the_hits(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    ids = _hikes(mem)
    mem.recall("hiking last weekend", now=ASKED, mode="keyword", limit=1)
    assert mem.show(ids["hills"]).fact.recall_count == 1
    mem.close()


# -- pseudo-relevance feedback ------------------------------------------------------------


def test_feedback_terms_are_shared_rare_and_new() -> None:
    top = [["joanna", "sister", "mia"], ["joanna", "gdansk"], ["mia", "tea"]]
    df = {"joanna": 2, "gdansk": 1, "tea": 9, "sister": 3, "mia": 4}
    # gdansk: one fact only; tea: more than half of the 10; sister, mia: asked already
    assert feedback_terms(top, {"sister", "mia"}, df, 10) == ["joanna"]
    assert mix_feedback({"a": 1.0}, {"a": 0.5, "b": 1.0}, 1.0) == {"a": 0.75, "b": 0.5}


def test_feedback_finds_what_the_first_hit_names(tmp_path: Path) -> None:
    facts = [
        NewFact(path="/n/a", content="Mia's sister is Joanna."),
        NewFact(path="/n/b", content="Joanna grew up in Gdansk."),
        NewFact(path="/n/c", content="The tea was cold."),
        NewFact(path="/n/d", content="We bought a new kettle."),
        NewFact(path="/n/e", content="The garden needs rain."),
        *(NewFact(path=f"/n/f{i}", content=f"Filler note number {i}.") for i in range(20)),
    ]
    query = "hometown of Mia's sister"
    plain = Memory.open(tmp_path / "a.db")  # off by default
    plain.store_many(facts)
    found = plain.recall(query, mode="keyword", under="/n", reinforce=False)
    assert [h.fact.content for h in found] == ["Mia's sister is Joanna."]
    fed = Memory.open(tmp_path / "b.db", fusion=FusionSettings(feedback_weight=FEEDBACK_WEIGHT))
    fed.store_many(facts)
    hits = fed.recall(query, mode="keyword", under="/n", reinforce=False)
    assert [h.fact.content for h in hits] == [
        "Mia's sister is Joanna.",
        "Joanna grew up in Gdansk.",
    ]
    plain.close()
    fed.close()


def test_feedback_is_off_in_a_tiny_memory(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db", fusion=FusionSettings(feedback_weight=FEEDBACK_WEIGHT))
    mem.store_many(
        [
            NewFact(path="/n/a", content="Mia's sister is Joanna."),
            NewFact(path="/n/b", content="Joanna grew up in Gdansk."),
        ]
    )
    hits = mem.recall("hometown of Mia's sister", mode="keyword", under="/n", reinforce=False)
    assert [h.fact.content for h in hits] == ["Mia's sister is Joanna."]
    mem.close()


def test_the_recall_cascade_reads_the_question_time_as_recall_does(tmp_path: Path) -> None:
    """The MCP ``recall`` tool answers the cascade: its ordinary memories are ranked with
    the question time (``now``) exactly as ``Memory.recall`` ranks them."""
    mem = Memory.open(tmp_path / "m.db")
    ids = _hikes(mem)
    query = "where did we go hiking last weekend"
    cascade = mem.chronicle.recall(query, now=ASKED, reinforce=False)
    plain = mem.recall(query, now=ASKED, reinforce=False)
    assert [h.fact.id for h in cascade.memories] == [h.fact.id for h in plain]
    assert cascade.memories[0].fact.id == ids["hills"]
    assert cascade.memories[0].parts.temporal == pytest.approx(TEMPORAL_WEIGHT)
    with pytest.raises(InvalidInput):
        mem.chronicle.recall(query, now="last week")
    mem.close()
