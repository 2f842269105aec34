"""The ONNX cross-encoder adapter, on a random-weight model of the real architecture: its
scores are ONNX Runtime's for the pair inputs, and the PyTorch model's logits."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from embornal.adapters.config import RerankConfig
from embornal.adapters.rerank.base import LazyReranker, Reranker
from embornal.adapters.rerank.factory import (
    DEFAULT_RERANKER,
    DEFAULT_RERANKER_NAME,
    build_reranker,
    reranker_cached,
    reranker_loader,
)
from embornal.adapters.rerank.onnx import OnnxReranker
from embornal.errors import InvalidInput, RerankerError

QUERY = "where does the cat sleep?"
TEXTS = [
    "The cat sleeps on the warm windowsill.",
    "Quarterly revenue grew by four percent.",
    "A cat",
    "The deployment runs every night at two, after the backups; " * 6,
]


def _pairs(encoder_dir: Path, query: str, texts: list[str]) -> dict[str, Any]:
    """The pair inputs built here, independently of the adapter: one row a pair, padded."""
    import numpy as np
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(encoder_dir / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_length=512)
    enc = [tok.encode(query, text) for text in texts]
    width = max(len(e.ids) for e in enc)
    ids = np.zeros((len(enc), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, e in enumerate(enc):
        ids[row, : len(e.ids)] = e.ids
        mask[row, : len(e.ids)] = e.attention_mask
        types[row, : len(e.ids)] = e.type_ids
    assert types.max() == 1  # the text is the second segment
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def test_the_adapter_is_a_reranker(onnx_reranker: OnnxReranker) -> None:
    assert isinstance(onnx_reranker, Reranker)
    assert onnx_reranker.identity == "test/cross-encoder"
    assert onnx_reranker.model_file.parent.name == "onnx"  # the hub's layout
    assert onnx_reranker.score(QUERY, []) == []


def test_scores_equal_a_direct_onnxruntime_run(
    onnx_reranker: OnnxReranker, encoder_dir: Path
) -> None:
    import numpy as np
    import onnxruntime

    session = onnxruntime.InferenceSession(
        str(encoder_dir / "onnx" / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    (logits,) = session.run(["logits"], _pairs(encoder_dir, QUERY, TEXTS))
    ours = onnx_reranker.score(QUERY, TEXTS)
    assert np.allclose(ours, logits[:, 0], atol=1e-5)


def test_scores_equal_the_pytorch_models_logits(
    onnx_reranker: OnnxReranker, encoder_dir: Path
) -> None:
    import numpy as np
    import torch
    import transformers

    model = transformers.AutoModelForSequenceClassification.from_pretrained(
        str(encoder_dir), attn_implementation="eager"
    )
    model.eval()
    feed = {k: torch.from_numpy(v) for k, v in _pairs(encoder_dir, QUERY, TEXTS).items()}
    with torch.no_grad():
        logits = model(**feed).logits[:, 0].numpy()
    assert np.allclose(onnx_reranker.score(QUERY, TEXTS), logits, atol=1e-4)


def test_batches_and_padding_change_no_score(encoder_dir: Path) -> None:
    import numpy as np

    one = OnnxReranker(encoder_dir, batch_size=1, threads=1)
    many = OnnxReranker(encoder_dir, batch_size=16, threads=1)
    alone = [one.score(QUERY, [t])[0] for t in TEXTS]
    assert np.allclose(one.score(QUERY, TEXTS), alone, atol=1e-5)
    assert np.allclose(many.score(QUERY, TEXTS), alone, atol=1e-4)
    assert one.score(QUERY, TEXTS[::-1]) == pytest.approx(alone[::-1], abs=1e-5)


def test_a_long_text_is_cut_to_the_models_limit(onnx_reranker: OnnxReranker) -> None:
    long = "word " * 5000
    (score,) = onnx_reranker.score(QUERY, [long])
    assert isinstance(score, float)


def test_a_directory_without_the_files_is_a_reranker_error(tmp_path: Path) -> None:
    with pytest.raises(RerankerError) as info:
        OnnxReranker(tmp_path / "absent")
    assert "does not exist" in info.value.message
    with pytest.raises(RerankerError) as info:
        OnnxReranker(tmp_path)
    assert "no model.onnx" in info.value.message
    assert "embornal model pull --reranker" in (info.value.hint or "")


def test_the_default_spec_names_the_upstream_onnx_export() -> None:
    assert DEFAULT_RERANKER_NAME == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert DEFAULT_RERANKER.files == ("onnx/model.onnx", "tokenizer.json", "config.json")


def test_not_pulled_is_a_clear_error(tmp_path: Path) -> None:
    cfg = RerankConfig()
    assert reranker_cached(cfg, tmp_path) is None
    with pytest.raises(InvalidInput) as info:
        build_reranker(cfg, tmp_path)
    assert DEFAULT_RERANKER_NAME in info.value.message
    assert "embornal model pull --reranker" in (info.value.hint or "")
    lazy = reranker_loader(cfg, tmp_path)  # nothing is read until it is used
    assert isinstance(lazy, LazyReranker) and not lazy.loaded
    assert lazy.identity == DEFAULT_RERANKER_NAME
    with pytest.raises(InvalidInput):
        lazy.score(QUERY, TEXTS)


def test_the_pulled_default_and_a_model_path_load(encoder_dir: Path, tmp_path: Path) -> None:
    cached = tmp_path / "models" / "cross-encoder--ms-marco-MiniLM-L-6-v2"
    cached.mkdir(parents=True)
    for name in DEFAULT_RERANKER.files:
        (cached / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(encoder_dir / name, cached / name)
    assert reranker_cached(RerankConfig(), tmp_path) == cached
    pulled = build_reranker(RerankConfig(batch_size=2), tmp_path)
    assert pulled.identity == DEFAULT_RERANKER_NAME and pulled.batch_size == 2
    local = build_reranker(RerankConfig(model_path=str(encoder_dir)), tmp_path / "elsewhere")
    assert local.identity == encoder_dir.name
    assert pulled.score(QUERY, TEXTS) == pytest.approx(local.score(QUERY, TEXTS), abs=1e-5)
    lazy = reranker_loader(RerankConfig(), tmp_path)
    assert lazy.score(QUERY, TEXTS[:1]) and lazy.loaded


def test_another_hub_model_is_found_by_its_files(encoder_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "models" / "acme--reranker"
    shutil.copytree(encoder_dir, other)
    assert reranker_cached(RerankConfig(model="acme/reranker"), tmp_path) == other
    assert reranker_cached(RerankConfig(model="acme/none"), tmp_path) is None
