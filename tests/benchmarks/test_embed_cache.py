"""The benchmarks' embedding cache: same vectors, fewer model calls, kept across runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from benchmarks.retrieval.embed_cache import CachedEmbedder

from embornal.adapters.embeddings.base import FakeEmbedder


class _Counting(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__(32)
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.documents.extend(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)


def test_cached_vectors_equal_the_model_and_are_embedded_once(tmp_path: Path) -> None:
    model = _Counting()
    cache = CachedEmbedder(model, tmp_path / "cache.db")
    first = cache.embed_documents(["alpha", "beta", "alpha"])
    direct = model.embed_documents(["alpha", "beta", "alpha"])
    for got, want in zip(first, direct, strict=True):
        assert got == pytest.approx(want, abs=1e-6)
    model.documents.clear()
    again = cache.embed_documents(["beta", "gamma"])
    assert model.documents == ["gamma"]
    assert again[0] == pytest.approx(first[1], abs=1e-6)
    assert cache.embed_query("alpha") == pytest.approx(model.embed_query("alpha"), abs=1e-6)
    assert cache.identity == model.identity and cache.dims == 32
    cache.close()

    model2 = _Counting()
    reopened = CachedEmbedder(model2, tmp_path / "cache.db")
    reopened.embed_documents(["alpha", "beta", "gamma"])
    reopened.embed_query("alpha")
    assert model2.documents == [] and model2.queries == []
    assert reopened.hits == 4 and reopened.misses == 0
    reopened.close()


def test_documents_and_queries_and_models_do_not_mix(tmp_path: Path) -> None:
    model = _Counting()
    cache = CachedEmbedder(model, tmp_path / "cache.db")
    cache.embed_documents(["same text"])
    cache.embed_query("same text")
    assert model.queries == ["same text"]  # a query is not served a document vector
    other = CachedEmbedder(FakeEmbedder(32, name="other"), tmp_path / "cache.db")
    other.embed_documents(["same text"])
    assert other.misses == 1
    cache.close()
    other.close()


def test_the_cache_answers_a_query_from_another_thread(tmp_path: Path) -> None:
    """Recall embeds its query on a worker thread; the cache opened on the main one."""
    from concurrent.futures import ThreadPoolExecutor

    model = _Counting()
    cache = CachedEmbedder(model, tmp_path / "cache.db")
    with ThreadPoolExecutor(max_workers=2) as pool:
        vectors = list(pool.map(cache.embed_query, ["alpha", "beta", "alpha"]))
    assert vectors[0] == pytest.approx(model.embed_query("alpha"), abs=1e-6)
    assert vectors[2] == pytest.approx(vectors[0], abs=1e-6)
