"""Keyword terms: folding, stemming, CJK bigrams, and queries that can never break FTS5."""

from __future__ import annotations

import pytest

from embornal.domain.recall.text import (
    fts_document,
    fts_query,
    index_terms,
    query_terms,
    topic_terms,
    without_order_asked,
)


def test_accents_fold_and_words_stem() -> None:
    assert index_terms("Café RUNNING cats") == ["cafe", "run", "cat"]


def test_cjk_runs_become_overlapping_bigrams() -> None:
    assert index_terms("记忆系统") == ["记忆", "忆系", "系统"]
    assert index_terms("记") == ["记"]
    assert index_terms("ab记忆cd") == ["ab", "记忆", "cd"]


def test_query_drops_stopwords_unless_nothing_else_is_left() -> None:
    assert query_terms("What is the database?") == ["databas"]
    assert query_terms("the") == ["the"]
    assert query_terms("a a b") == ["b"]


def test_fts_query_quotes_every_term() -> None:
    assert fts_query(["near", 'a"b']) == '"near" OR "a""b"'


def test_operators_are_just_characters() -> None:
    hostile = 'NEAR(a b) "x" * - : ^ AND OR NOT {c d}'
    terms = query_terms(hostile)
    assert all(t.isalnum() for t in terms)
    assert fts_document(hostile).split() == index_terms(hostile)


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (
            "What is the order of the six museums I visited from earliest to latest?",
            "what is the six museums i visited ?",
        ),
        ("the trips, from the latest to the earliest", "the trips,"),
        ("List my moves in chronological order", "list my moves"),
        ("In what order did I read the books?", "did i read the books?"),
        ("The airlines I flew with, oldest to newest", "the airlines i flew with,"),
    ],
)
def test_the_words_asking_for_an_order_in_time_leave_the_keyword_query(
    query: str, words: str
) -> None:
    """They give the answer's form, not its topic (decision 0161)."""
    assert without_order_asked(query) == words


@pytest.mark.parametrize(
    "query",
    ["What did I order at the diner?", "My first car", "the latest news on the roof", "Last week"],
)
def test_a_query_that_asks_for_no_order_is_read_as_it_is(query: str) -> None:
    assert without_order_asked(query) == query


def test_the_topic_terms_are_the_query_terms_less_the_order_asked() -> None:
    assert topic_terms("museums I visited, from earliest to latest") == ["museum", "visit"]
    assert topic_terms("from earliest to latest") == ["earliest", "latest"]
    assert topic_terms("What did I order?") == query_terms("What did I order?")
