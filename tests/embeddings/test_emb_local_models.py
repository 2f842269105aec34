"""The sentence-transformers and ONNX providers on the packaged all-MiniLM-L6-v2.

Skipped where torch / sentence-transformers / onnxruntime are not installed.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from embornal.adapters.embeddings import EmbeddingProvider
from embornal.errors import EmbeddingError

MINILM_DIMS = 384

TEXTS = [
    "The cat sleeps on the warm windowsill.",
    "A kitten is napping in the sun by the window.",
    "Quarterly revenue grew by twelve percent.",
    "東京は日本の首都で、人口が最も多い都市です。",
    "Ça coûte très cher à Málaga, señor, où l'été est brûlant.",
    "x",
    "",
]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def norm(v: list[float]) -> float:
    return math.sqrt(sum(x * x for x in v))


def test_sentence_transformers_similar_sentences_are_closer(st_minilm: Any) -> None:
    assert isinstance(st_minilm, EmbeddingProvider)
    assert st_minilm.dims == MINILM_DIMS
    assert st_minilm.identity == f"all-MiniLM-L6-v2:{MINILM_DIMS}"
    cat, kitten, revenue = st_minilm.embed_documents(TEXTS[:3])
    assert cosine(cat, kitten) > cosine(cat, revenue) + 0.2
    query = st_minilm.embed_query("where is the cat sleeping?")
    assert cosine(query, cat) > cosine(query, revenue)


def test_sentence_transformers_vectors_are_normalised(st_minilm: Any) -> None:
    vectors = st_minilm.embed_documents(TEXTS)
    assert len(vectors) == len(TEXTS)
    for vector in vectors:
        assert len(vector) == MINILM_DIMS
        assert math.isclose(norm(vector), 1.0, abs_tol=1e-5)
    assert st_minilm.embed_documents([]) == []


def test_onnx_matches_sentence_transformers(onnx_minilm: Any, st_minilm: Any) -> None:
    assert isinstance(onnx_minilm, EmbeddingProvider)
    assert onnx_minilm.dims == MINILM_DIMS
    assert onnx_minilm.identity == f"all-MiniLM-L6-v2:{MINILM_DIMS}"
    # One batch with texts of very different lengths: padding must not leak.
    ours = onnx_minilm.embed_documents(TEXTS)
    theirs = st_minilm.embed_documents(TEXTS)
    for a, b in zip(ours, theirs, strict=True):
        assert cosine(a, b) > 0.99
    assert cosine(onnx_minilm.embed_query(TEXTS[0]), theirs[0]) > 0.99


def test_onnx_reads_the_model_directory_configs(onnx_minilm: Any) -> None:
    assert onnx_minilm.pooling == "mean"
    assert onnx_minilm.max_tokens == 256  # sentence_bert_config.json
    assert onnx_minilm.query_prefix == "" and onnx_minilm.document_prefix == ""


def test_onnx_cjk_and_accented_text(onnx_minilm: Any) -> None:
    cjk, accented = onnx_minilm.embed_documents([TEXTS[3], TEXTS[4]])
    for vector in (cjk, accented):
        assert len(vector) == MINILM_DIMS
        assert math.isclose(norm(vector), 1.0, abs_tol=1e-5)
        assert all(math.isfinite(x) for x in vector)


def test_onnx_batches_keep_order(onnx_minilm_dir: Path, onnx_minilm: Any) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    small = OnnxEmbedder(onnx_minilm_dir, batch_size=2, threads=1)
    batched = small.embed_documents(TEXTS)
    single = [onnx_minilm.embed_documents([t])[0] for t in TEXTS]
    for a, b in zip(batched, single, strict=True):
        assert cosine(a, b) > 0.9999
    assert small.identity == f"{onnx_minilm_dir.name}:{MINILM_DIMS}"


def test_onnx_truncates_long_input(onnx_minilm_dir: Path) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    provider = OnnxEmbedder(onnx_minilm_dir, max_tokens=2048)
    assert provider.max_tokens == 256
    long_text = "memory " * 3000
    (vector,) = provider.embed_documents([long_text])
    assert math.isclose(norm(vector), 1.0, abs_tol=1e-5)


def test_onnx_prefixes_and_cls_pooling(onnx_minilm_dir: Path, onnx_minilm: Any) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    prefixed = OnnxEmbedder(
        onnx_minilm_dir, query_prefix="query: ", document_prefix="passage: ", pooling="cls"
    )
    assert prefixed.pooling == "cls"
    text = "prefixes change the vector"
    plain = onnx_minilm.embed_query(text)
    query = prefixed.embed_query(text)
    document = prefixed.embed_documents([text])[0]
    assert math.isclose(norm(query), 1.0, abs_tol=1e-5)
    assert cosine(query, document) < 0.9999
    assert cosine(plain, query) < 0.9999


def test_onnx_model_in_onnx_subfolder(onnx_minilm_dir: Path, tmp_path: Path) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    (tmp_path / "onnx").mkdir()
    (tmp_path / "onnx" / "model.onnx").symlink_to(onnx_minilm_dir / "model.onnx")
    (tmp_path / "tokenizer.json").symlink_to(onnx_minilm_dir / "tokenizer.json")
    provider = OnnxEmbedder(tmp_path, name="sub")
    assert provider.identity == f"sub:{MINILM_DIMS}"
    assert provider.max_tokens == 512


def test_onnx_missing_files_are_embedding_errors(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    with pytest.raises(EmbeddingError, match="does not exist"):
        OnnxEmbedder(tmp_path / "nowhere")
    with pytest.raises(EmbeddingError, match=r"no model\.onnx"):
        OnnxEmbedder(tmp_path)
    (tmp_path / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match=r"no tokenizer\.json"):
        OnnxEmbedder(tmp_path)


def test_sentence_transformers_missing_model_is_an_embedding_error(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    from embornal.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder

    with pytest.raises(EmbeddingError):
        SentenceTransformerEmbedder(tmp_path / "no-such-model")


def test_default_thread_count_fits_the_machine() -> None:
    from embornal.adapters.embeddings.onnx import default_thread_count

    assert 1 <= default_thread_count() <= 4


def test_onnx_long_texts_go_a_few_at_a_time(onnx_minilm_dir: Path, onnx_minilm: Any) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    class Counting(OnnxEmbedder):
        """Records how many texts each model call receives."""

        sizes: list[int]

        def _run(self, encodings: Any) -> Any:
            self.sizes.append(len(encodings))
            return super()._run(encodings)

    provider = Counting(onnx_minilm_dir, batch_size=32, batch_tokens=1024, threads=1)
    provider.sizes = []
    long_texts = [f"piece {i}: " + "the memory keeps every word " * 40 for i in range(12)]
    vectors = provider.embed_documents([*TEXTS[:3], *long_texts])
    assert max(provider.sizes) <= 1024 // provider.max_tokens + 1  # about 250 tokens each
    assert sum(provider.sizes) == 15
    single = [onnx_minilm.embed_documents([t])[0] for t in [*TEXTS[:3], *long_texts]]
    for a, b in zip(vectors, single, strict=True):
        assert cosine(a, b) > 0.9999


def test_onnx_batch_tokens_must_be_positive(onnx_minilm_dir: Path) -> None:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    with pytest.raises(ValueError, match="batch_tokens"):
        OnnxEmbedder(onnx_minilm_dir, batch_tokens=0)
