"""Keyword terms: folding, stemming, CJK bigrams, and queries that can never break FTS5."""

from __future__ import annotations

from embornal.domain.text import fts_document, fts_query, index_terms, query_terms


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
