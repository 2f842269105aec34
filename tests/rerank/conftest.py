"""Fixtures of the reranker tests: the random-weight cross-encoder, and its adapter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rerank_helpers import cross_encoder_dir


@pytest.fixture(scope="session")
def encoder_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cross_encoder_dir(tmp_path_factory)


@pytest.fixture(scope="session")
def onnx_reranker(encoder_dir: Path) -> Any:
    from embornal.adapters.rerank.onnx import OnnxReranker

    return OnnxReranker(encoder_dir, name="test/cross-encoder", threads=1)
