"""Names the query mentions lift the facts that mention them; the best other hit on a
fact's path lifts it; a time the query names reads the event time of the history context
(decisions 0113, 0114).

Small constructed memories (never benchmark data).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.domain.recall.query_entities import entity_share, query_entities
from embornal.domain.recall.ranking import (
    ENTITY_WEIGHT,
    TEMPORAL_WEIGHT,
    FusionSettings,
    entity_lifts,
    path_lifts,
)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("What did Caroline research?", ("carolin",)),  # stemmed like the index
        ("Which city have both Jean and John visited?", ("jean", "john")),
        ("What are Joanna's hobbies?", ("joanna",)),  # the possessive splits off
        ("What LGBTQ+ events has Caroline attended?", ("lgbtq", "carolin")),
        ("Bob went home", ()),  # the first word of a sentence says nothing
        ("what did I tell Bob? And Alice?", ("bob", "alic")),  # "I" and "And" are no names
        ("Would she read Dr. Seuss?", ("dr", "seuss")),  # a title's point ends no sentence
        ("where did we go hiking", ()),
        ("What did Bob do on Saturday in May?", ("bob",)),  # the calendar names a time
        ("", ()),
    ],
)
def test_the_names_of_a_query(query: str, names: tuple[str, ...]) -> None:
    assert query_entities(query) == names


def test_a_name_is_counted_once() -> None:
    assert query_entities("Did Gina call Gina's mother or Jon?") == ("gina", "jon")


def test_the_share_of_the_names_a_fact_holds() -> None:
    assert entity_share(("jean", "john"), ["john", "visit", "rome"]) == 0.5
    assert entity_share(("jean", "john"), ["jean", "john"]) == 1.0
    assert entity_share((), ["john"]) == 0.0


def test_entity_lifts_weigh_the_share_and_are_off_at_zero() -> None:
    terms = {"a": ["jean", "john"], "b": ["john"], "c": ["rome"]}
    lifted = entity_lifts(terms, ("jean", "john"), 0.4)
    assert lifted == pytest.approx({"a": 0.4, "b": 0.2, "c": 0.0})
    assert entity_lifts(terms, ("jean", "john"), 0.0) == {}
    assert entity_lifts(terms, (), 0.4) == {}


def _people(mem: Memory) -> dict[str, str]:
    stored = mem.store_many(
        [
            NewFact(path="/chat/s1", content="Bob: I took up painting landscapes last spring."),
            NewFact(path="/chat/s2", content="Alice: My hobbies are painting and pottery."),
            NewFact(path="/chat/s3", content="Bob: Hobbies keep me sane, painting most of all."),
        ]
    )
    return {f.content.split(":")[0] + str(i): f.id for i, f in enumerate(stored)}


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_the_fact_that_names_the_person_comes_first(tmp_path: Path, mode: str) -> None:
    fusion = FusionSettings(entity_weight=0.5)
    mem = Memory.open(tmp_path / "m.db", embedder=FakeEmbedder(dims=64), fusion=fusion)
    ids = _people(mem)
    hits = mem.recall("What are Alice's hobbies?", mode=mode, reinforce=False)
    assert hits[0].fact.id == ids["Alice1"]
    top = hits[0].parts
    assert top.entities == ("alic",)
    assert top.entity == pytest.approx(0.5)
    assert top.as_dict()["entities"] == ["alic"]
    bobs = [h.parts.entity for h in hits if h.fact.id in (ids["Bob0"], ids["Bob2"])]
    assert bobs and set(bobs) == {0.0}
    mem.close()


def test_on_by_default_and_off_at_zero(tmp_path: Path) -> None:
    assert FusionSettings().entity_weight == ENTITY_WEIGHT
    mem = Memory.open(tmp_path / "m.db", fusion=FusionSettings(entity_weight=0.0))
    _people(mem)
    hits = mem.recall("What are Alice's hobbies?", mode="keyword", reinforce=False)
    assert hits
    assert {h.parts.entity for h in hits} == {None}
    assert {h.parts.entities for h in hits} == {()}
    mem.close()


def test_a_query_without_names_has_no_part(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db", fusion=FusionSettings(entity_weight=0.5))
    _people(mem)
    hits = mem.recall("what hobbies", mode="keyword", reinforce=False)
    assert hits
    assert {h.parts.entity for h in hits} == {None}
    mem.close()


# -- the best other candidate on the path (FusionSettings.path_weight) ---------------------


def test_path_lifts_take_the_best_other_on_the_path() -> None:
    relevance = {"a": 1.0, "b": 0.4, "c": 0.2, "d": 0.9}
    paths = {"a": "/s1", "b": "/s1", "c": "/s1", "d": "/s2"}
    lifted = path_lifts(relevance, paths, 0.5)
    # a's best other is b; b's and c's is a; d is alone on its path
    assert lifted == pytest.approx({"a": 0.2, "b": 0.5, "c": 0.5, "d": 0.0})
    assert path_lifts(relevance, paths, 0.0) == {}


def test_path_lifts_of_a_tie_at_the_top() -> None:
    lifted = path_lifts({"a": 0.8, "b": 0.8}, {"a": "/s", "b": "/s"}, 1.0)
    assert lifted == pytest.approx({"a": 0.8, "b": 0.8})


def test_a_fact_on_the_path_of_the_best_hit_gains(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db", fusion=FusionSettings(path_weight=0.5))
    far = [NewFact(path="/chat/s1", content=f"Filler line {i} about nothing.") for i in range(4)]
    stored = mem.store_many(
        [
            NewFact(path="/chat/s1", content="The tandem bicycle trip to the coast."),
            *far,
            NewFact(path="/chat/s1", content="We packed the tandem with bread and cheese."),
            NewFact(path="/chat/s2", content="Bread and cheese again for lunch."),
        ]
    )
    hits = mem.recall("tandem trip bread", mode="keyword", reinforce=False)
    by_id = {h.fact.id: h for h in hits}
    packed, lunch = by_id[stored[5].id], by_id[stored[6].id]
    assert packed.parts.path is not None and packed.parts.path > 0.0
    assert lunch.parts.path == 0.0  # alone among the candidates on its path
    assert packed.parts.as_dict()["path"] == packed.parts.path
    mem.close()


def test_path_part_is_none_when_off(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    _people(mem)
    hits = mem.recall("painting", mode="keyword", reinforce=False)
    assert hits
    assert {h.parts.path for h in hits} == {None}
    mem.close()


# -- the time named, read against the event time of the history context --------------------


def test_a_time_named_reads_the_event_time_too(tmp_path: Path) -> None:
    mem = Memory.open(tmp_path / "m.db")
    stored = mem.store_many(
        [
            NewFact(path="/notes", content="The kiln firing went well.", at="2026-11-30T10:00:00Z"),
            NewFact(
                path="/notes", content="The kiln firing cracked a bowl.", at="2026-11-30T11:00:00Z"
            ),
        ]
    )
    told = stored[1]
    mem.chronicle.set_history_context(told.id, event_at="2026-05-09T10:00:00Z", reason="told later")
    hits = mem.recall(
        "kiln firing in May", now="2026-12-02T10:00:00Z", mode="keyword", reinforce=False
    )
    assert hits[0].fact.id == told.id  # stored in November, it tells of a day in May
    assert hits[0].parts.temporal == pytest.approx(TEMPORAL_WEIGHT)
    other = next(h for h in hits if h.fact.id == stored[0].id)
    assert other.parts.temporal == 0.0
    mem.close()
