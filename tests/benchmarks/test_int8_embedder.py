"""The retrieval runners' ``--embedder minilm-int8``: embornal's own int8 quantization of
all-MiniLM-L6-v2, loaded by its ``OnnxEmbedder`` under an identity of its own."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from benchmarks.retrieval import systems
from benchmarks.retrieval.cli import add_common_arguments, config_from_args


def test_the_runners_accept_the_int8_embedder() -> None:
    parser = argparse.ArgumentParser()
    add_common_arguments(parser)
    args = parser.parse_args(
        ["--system", "embornal", "--mode", "hybrid", "--embedder", "minilm-int8"]
    )
    assert config_from_args(parser, args).embedder == "minilm-int8"
    assert "minilm-int8" in systems.EMBEDDERS


def test_the_int8_embedder_loads_a_kept_export(tmp_path: Path) -> None:
    """A directory that already holds ``model_int8.onnx`` is loaded as it is."""
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from benchmarks.embed_throughput import _minilm_dir
    from benchmarks.onnx_export import E5_SMALL_SHAPE, export_shape_onnx

    from embornal.adapters.embeddings.onnx import OnnxEmbedder
    from embornal.adapters.embeddings.quantize import quantize_int8

    tiny = dict(
        E5_SMALL_SHAPE,
        vocab_size=31000,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
    )
    export_shape_onnx(tiny, _minilm_dir(), tmp_path, seed=3)
    quantize_int8(tmp_path / "model.onnx")
    provider = systems._build_minilm_int8(tmp_path)
    assert isinstance(provider, OnnxEmbedder) and provider.int8
    assert provider.identity == f"{systems.MINILM_MODEL}+int8:16"
    vector = provider.embed_query("when did Caroline move?")
    assert len(vector) == 16
