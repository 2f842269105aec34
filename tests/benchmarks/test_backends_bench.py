"""benchmarks/backends.py's stand-in model and pg_vector_pool.py's agreement measures."""

from __future__ import annotations

import math

import pytest
from benchmarks.backends import QueryCache, WordVectors

from benchmarks import pg_vector_pool

pytest.importorskip("numpy")


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_word_vectors_are_dense_unit_vectors_near_where_texts_share_words() -> None:
    model = WordVectors(64)
    fox = model.embed_query("the quick brown fox")
    dog = model.embed_query("a quick brown dog")
    rates = model.embed_query("monetary policy rates")
    assert math.isclose(math.sqrt(_cos(fox, fox)), 1.0, rel_tol=1e-5)
    assert all(x != 0.0 for x in fox)  # every coordinate used, unlike feature hashing
    assert _cos(fox, dog) > 0.4 > abs(_cos(fox, rates))
    assert WordVectors(64).embed_documents(["the quick brown fox"]) == [fox]  # the same run to run


def test_query_cache_picks_the_model_asked() -> None:
    assert QueryCache(32).identity == "bench-words:32"
    assert QueryCache(32, "hash").identity == "fake:32"


def test_agreement_counts_found_and_near_ties() -> None:
    exact = [(1, 0.9), (2, 0.8), (3, 0.7)]
    found = [(1, 0.9), (4, 0.699), (5, 0.5)]
    assert pg_vector_pool._share(found, exact, 3) == pytest.approx(1 / 3)
    # 4 is within 1 % of the exact third: as near as the exact answer's last
    assert pg_vector_pool._as_good(found, exact, 3) == pytest.approx(2 / 3)
