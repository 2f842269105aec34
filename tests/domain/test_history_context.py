"""The history context's pure rules (decisions 0088-0090): the checks,
memory-as-history's relation names and the bounded choice of evidence."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from embornal.domain.graph.rules import Relation
from embornal.domain.history.context import (
    MAX_EVIDENCE,
    HistoryContext,
    check_context,
    check_window,
    relation_of,
    select_evidence,
)
from embornal.errors import InvalidInput, InvalidLink


def test_the_context_is_checked_and_normalised() -> None:
    c = check_context("2025-03-01T10:00:00+01:00", "  s-1 ", 0)
    assert c == HistoryContext(datetime(2025, 3, 1, 9, tzinfo=UTC), "s-1", 0)
    assert check_context(None, " ", None) == HistoryContext()
    for bad in ((None, None, 1), (None, "s", -1), (None, "s", True), ("soon", None, None)):
        with pytest.raises(InvalidInput):
            check_context(*bad)
    with pytest.raises(InvalidInput):
        check_window("2025-03-02", "2025-03-01")


def test_seed_names_and_typed_relations() -> None:
    assert relation_of("related") is Relation.RELATES_TO
    assert relation_of("Updates") is Relation.SUPERSEDES
    assert relation_of("explains") is Relation.ABOUT
    assert relation_of("derived-from") is Relation.DERIVED_FROM
    with pytest.raises(InvalidLink) as e:
        relation_of("causes")
    assert e.value.hint is not None and "relates_to" in e.value.hint


def test_evidence_links_first_each_memory_once_capped() -> None:
    near = {"a": [("n1", 1), ("n2", -1), ("b", 2)], "b": [("n1", -1), ("n3", 1)]}
    linked = {"a": [("l1", "about", "in"), ("n1", "relates_to", "out")]}
    picks = select_evidence(["a", "b"], near, linked, 2, "both")
    assert [(p.memory_id, p.seed_id, p.via) for p in picks] == [
        ("l1", "a", "link"),
        ("n1", "a", "link"),
        ("n2", "a", "session"),
        ("n3", "b", "session"),
    ]
    assert select_evidence(["a"], near, linked, 0, "both") == []
    assert [p.via for p in select_evidence(["a"], near, linked, 1, "session")] == ["session"]
    many = {f"h{i}": [(f"x{i}-{j}", j) for j in range(5)] for i in range(30)}
    assert len(select_evidence(list(many), many, {}, 5, "both")) == MAX_EVIDENCE
