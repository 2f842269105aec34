"""The pure mapping of other tools' records to proposal items (decisions 0076, 0077)."""

from __future__ import annotations

import pytest

from embornal.domain.graph.rules import Relation
from embornal.domain.portability.import_history import HistoryData, HistoryMemory, map_history
from embornal.domain.portability.import_mapping import (
    IMPORT_CONFIDENCE,
    Entity,
    Graph,
    Mem0Memory,
    Observation,
    Related,
    entity_kind,
    link_relation,
    map_graph,
    map_mem0,
    segment,
)
from embornal.errors import InvalidImport


@pytest.mark.parametrize(
    ("verb", "source", "target", "relation"),
    [
        ("works_at", "person", "organization", Relation.WORKS_AT),
        ("Works For", "person", "organization", Relation.WORKS_AT),
        ("works_at", "fact", "organization", Relation.RELATES_TO),  # a fact may not emit it
        ("works_at", "person", "person", Relation.RELATES_TO),  # nor point it at a person
        ("located_in", "organization", "location", Relation.LOCATED_IN),
        ("part_of", "organization", "organization", Relation.PART_OF),
        ("part_of", "organization", "person", Relation.RELATES_TO),  # same kind only
        ("mentors", "person", "person", Relation.RELATES_TO),  # not in the vocabulary
        ("links_to", "fact", "fact", Relation.RELATES_TO),
        ("derived_from", "fact", "fact", Relation.DERIVED_FROM),
    ],
)
def test_a_verb_is_a_typed_link_where_the_vocabulary_and_kinds_allow(
    verb: str, source: str, target: str, relation: Relation
) -> None:
    assert link_relation(verb, source, target) is relation


def test_entity_types_name_kinds() -> None:
    assert entity_kind("Person", "Ada") == ("person", {"full_name": "Ada"})
    assert entity_kind("company", "Acme") == ("organization", {"name": "Acme"})
    assert entity_kind("meeting", "Sync") == ("fact", None)


def test_segments_are_made_from_names() -> None:
    assert segment("John Smith", "x") == "john-smith"
    assert segment("Team Alpha!", "x") == "team-alpha"
    assert segment("Zoë_Ü", "x") == "zoë_ü"
    with pytest.raises(InvalidImport, match="line 3: '!!!' names no path segment"):
        segment("!!!", "line 3")


def _graph(*relations: Related) -> Graph:
    a = Entity("A", "A", "person", "line 1", (Observation("likes tea"),))
    b = Entity("B", "B", "organization", "line 2")
    return Graph("mcp-memory", (a, b), relations)


def test_a_graph_becomes_creates_then_links() -> None:
    plan = map_graph(
        _graph(
            Related("A", "works_at", "B", "line 3"),
            Related("A", "works_at", "B", "line 4"),
            Related("A", "knows", "C", "line 5"),
        ),
        None,
    )
    types = [i["type"] for i in plan.items]
    assert types == ["create", "create", "link", "create", "link"]  # the duplicate: once
    assert plan.facts == 3 and plan.links == 2
    assert plan.skipped == ("line 5: knows to 'C', no such entity",)
    first = plan.items[0]
    assert first["confidence"] == IMPORT_CONFIDENCE and first["source"] == "import:mcp-memory"
    assert first["evidence"] == [{"type": "uri", "value": "import:mcp-memory/A"}]
    assert plan.items[2] == {
        "type": "link",
        "source": "#2",
        "relation": "about",
        "target": "#1",
        "reason": "mcp-memory: an observation of A",
    }
    assert plan.items[4]["relation"] == "works_at"


def test_a_bad_under_path_is_refused() -> None:
    with pytest.raises(InvalidImport, match="--under '/Bad Path'"):
        map_graph(_graph(), "/Bad Path")


def test_an_empty_source_is_refused() -> None:
    with pytest.raises(InvalidImport, match="holds no memory"):
        map_mem0([], None)


def test_mem0_paths_per_user_or_agent() -> None:
    plan = map_mem0(
        [
            Mem0Memory("1", "a", "memory 1", user_id="Alice Smith"),
            Mem0Memory("2", "b", "memory 2", agent_id="bot"),
            Mem0Memory("3", "c", "memory 3"),
        ],
        "/people",
    )
    assert [i["path"] for i in plan.items] == [
        "/people/alice-smith",
        "/people/agents/bot",
        "/people/shared",
    ]


def test_a_forgotten_history_memory_is_archived_after_it_is_made() -> None:
    gone = HistoryMemory(
        "m1", "old", "2025-01-01", forgotten_at="2025-02-01", forgotten_reason="moved"
    )
    plan = map_history(HistoryData((gone,)), None)
    assert [i["type"] for i in plan.items] == ["create", "archive"]
    assert plan.items[1]["fact_id"] == "#1"
    assert "forgotten in memory-as-history at 2025-02-01: moved" in plan.items[1]["reason"]


def test_a_link_of_a_fact_to_itself_is_named_as_skipped() -> None:
    plan = map_graph(
        _graph(Related("A", "knows", "A", "line 3"), Related("A", "works_at", "B", "line 4")), None
    )
    assert plan.skipped == ("line 3: knows: relates_to to itself, not linked",)
    assert plan.links == 2  # the observation's about, and A works_at B
    memory = HistoryMemory("m1", "a", "2025-01-01")
    history = map_history(HistoryData((memory,), links=(("m1", "m1", "related", "x"),)), None)
    assert history.skipped == ("memory link m1 related m1: relates_to to itself, not linked",)
    assert history.links == 0
