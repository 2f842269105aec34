"""The provider interface and the dependency-free test doubles."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from embornal.adapters.embeddings import (
    EmbeddingProvider,
    FailingEmbedder,
    FakeEmbedder,
    known_prefixes,
    l2_normalize,
    width_mismatch,
)
from embornal.errors import ConfigError, EmbeddingError, VectorWidthMismatch


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_fake_embedder_is_a_provider() -> None:
    fake = FakeEmbedder(64)
    assert isinstance(fake, EmbeddingProvider)
    assert fake.dims == 64
    assert fake.identity == "fake:64"


def test_fake_embedder_is_deterministic_across_instances_and_processes() -> None:
    text = "The deploy key lives in the vault"
    first = FakeEmbedder(32).embed_query(text)
    assert first == FakeEmbedder(32).embed_query(text)
    assert FakeEmbedder(32).embed_documents([text, text]) == [first, first]
    code = (
        "from embornal.adapters.embeddings import FakeEmbedder;"
        f"print(FakeEmbedder(32).embed_query({text!r}))"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert other == str(first)


def test_fake_embedder_vectors_are_unit_length() -> None:
    fake = FakeEmbedder(48)
    for text in ["", "   ", "one", "one two three", "!!!", "a a a a"]:
        vector = fake.embed_query(text)
        assert len(vector) == 48
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-9)


def test_fake_embedder_shared_words_are_closer() -> None:
    fake = FakeEmbedder(256)
    anchor, near, far = fake.embed_documents(
        [
            "the database migration failed on friday",
            "friday database migration rolled back",
            "buy oat milk and bananas",
        ]
    )
    assert cosine(anchor, near) > cosine(anchor, far)
    assert cosine(anchor, near) > 0.3


def test_fake_embedder_handles_cjk_and_accents() -> None:
    fake = FakeEmbedder(64)
    cjk, accented = fake.embed_documents(["東京は日本の首都です", "Ça coûte très cher à Málaga"])
    assert len(cjk) == len(accented) == 64
    # Case-folding maps accented capitals onto the lower case.
    assert fake.embed_query("ÉTÉ") == fake.embed_query("été")


def test_fake_embedder_rejects_bad_width() -> None:
    with pytest.raises(ValueError):
        FakeEmbedder(0)


def test_failing_embedder_always_raises_embedding_error() -> None:
    failing = FailingEmbedder(16)
    assert isinstance(failing, EmbeddingProvider)
    assert failing.dims == 16
    with pytest.raises(EmbeddingError) as caught:
        failing.embed_documents(["x"])
    assert isinstance(caught.value, ConfigError)
    with pytest.raises(EmbeddingError):
        failing.embed_query("x")
    assert failing.calls == 2


def test_l2_normalize() -> None:
    assert l2_normalize([3.0, 4.0]) == [0.6, 0.8]
    assert l2_normalize([0.0, 0.0]) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("intfloat/multilingual-e5-base", ("query: ", "passage: ")),
        ("intfloat/e5-small-v2", ("query: ", "passage: ")),
        ("intfloat/multilingual-e5-large-instruct", ("", "")),
        ("google/embeddinggemma-300m", ("task: search result | query: ", "title: none | text: ")),
        ("all-MiniLM-L6-v2", ("", "")),
        (None, ("", "")),
    ],
)
def test_known_prefixes(model: str | None, expected: tuple[str, str]) -> None:
    assert known_prefixes(model) == expected


def test_width_mismatch_error_names_the_fix() -> None:
    error = width_mismatch("m:384", 384, 768)
    assert isinstance(error, VectorWidthMismatch)
    assert "384" in error.message and "768" in error.message
    assert "embedding.dims" in error.hint
    assert "embornal memory reindex --all" in error.hint


def test_importing_the_package_loads_no_heavy_library() -> None:
    code = (
        "import sys, embornal.adapters.embeddings;"
        "print(sorted(m for m in ('numpy', 'onnxruntime', 'tokenizers', 'torch',"
        " 'sentence_transformers') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
