"""quantize_int8: ONNX Runtime's dynamic int8 quantization of a local model file."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal.adapters.embeddings.onnx import OnnxEmbedder, find_model_files
from embornal.adapters.embeddings.quantize import INT8_FILE, int8_path, quantize_int8
from embornal.errors import EmbeddingError


def test_int8_path_is_beside_the_fp32_file(tmp_path: Path) -> None:
    assert int8_path(tmp_path / "onnx" / "model.onnx") == tmp_path / "onnx" / INT8_FILE


def test_a_missing_or_damaged_file_is_an_embedding_error(tmp_path: Path) -> None:
    tmp_path = tmp_path / "model"
    tmp_path.mkdir()
    with pytest.raises(EmbeddingError, match="no ONNX model"):
        quantize_int8(tmp_path / "model.onnx")
    pytest.importorskip("onnxruntime")
    (tmp_path / "model.onnx").write_bytes(b"not an onnx model")
    with pytest.raises(EmbeddingError, match="could not quantize") as caught:
        quantize_int8(tmp_path / "model.onnx")
    assert "model pull" in caught.value.hint
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.onnx"]  # no part left


def test_the_int8_file_is_found_first(onnx_minilm_int8_dir: Path) -> None:
    model_file, tokenizer = find_model_files(onnx_minilm_int8_dir)
    assert model_file.name == INT8_FILE and tokenizer.name == "tokenizer.json"
    fp32 = (onnx_minilm_int8_dir / "model.onnx").stat().st_size
    assert model_file.stat().st_size < fp32 / 2


def test_the_int8_provider_loads_and_embeds(
    onnx_minilm_int8_dir: Path, onnx_minilm: OnnxEmbedder
) -> None:
    """all-MiniLM-L6-v2 quantized by embornal: its vectors are close to fp32's, not equal."""
    int8 = OnnxEmbedder(onnx_minilm_int8_dir, name="all-MiniLM-L6-v2")
    assert int8.int8 and int8.identity == "all-MiniLM-L6-v2+int8:384"
    assert not onnx_minilm.int8 and onnx_minilm.identity == "all-MiniLM-L6-v2:384"
    texts = ["The memory lives in one SQLite file.", "Alice prefers tea in the morning."]
    ours, theirs = int8.embed_documents(texts), onnx_minilm.embed_documents(texts)
    for u, v in zip(ours, theirs, strict=True):
        assert len(u) == 384
        assert 0.85 < sum(a * b for a, b in zip(u, v, strict=True)) < 0.99999
    # Meaning survives: each text is nearest its own fp32 vector.
    query = int8.embed_query("where is the memory stored")
    scores = [sum(a * b for a, b in zip(query, v, strict=True)) for v in theirs]
    assert scores[0] > scores[1]
