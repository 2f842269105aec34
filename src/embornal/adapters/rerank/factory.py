"""Build the reranker that ``rerank:`` in config.yaml asks for (decision 0115).

``rerank.model_path`` names a local model directory; otherwise ``rerank.model`` (default
:data:`DEFAULT_RERANKER_NAME`) is looked for in the cache dir, where
``embornal model pull --reranker`` puts it. Nothing here downloads.
"""

from __future__ import annotations

from pathlib import Path

from embornal.adapters.config import RerankConfig
from embornal.adapters.embeddings.download import ModelSpec, configured_model_dir, is_model_cached
from embornal.adapters.rerank.base import LazyReranker
from embornal.adapters.rerank.onnx import OnnxReranker, find_reranker_files
from embornal.errors import InvalidInput, RerankerError

__all__ = [
    "DEFAULT_RERANKER",
    "DEFAULT_RERANKER_NAME",
    "build_reranker",
    "reranker_cached",
    "reranker_loader",
]

DEFAULT_RERANKER = ModelSpec(
    repo="cross-encoder/ms-marco-MiniLM-L-6-v2",
    files=("onnx/model.onnx", "tokenizer.json", "config.json"),
    revision="main",
)
"""The default reranker: ms-marco-MiniLM-L-6-v2, a 6-layer, 384-wide BERT cross-encoder
trained on MS MARCO passage ranking (Apache-2.0), one logit a (query, passage) pair.
Upstream, its repository on the Hugging Face hub holds the ONNX export in ``onnx/``
(``onnx/model.onnx``, fp32, about 90 MB, beside optimised and quantised variants) and
the fast tokenizer and config at the top (``tokenizer.json``, ``config.json``). The hub
sends each LFS file's sha256 (``X-Linked-Etag``), which the download checks."""

DEFAULT_RERANKER_NAME = DEFAULT_RERANKER.repo


def _name(cfg: RerankConfig) -> str:
    return cfg.model or DEFAULT_RERANKER_NAME


def reranker_cached(cfg: RerankConfig, cache_dir: Path) -> Path | None:
    """The directory of the configured reranker if its files are all there, else None."""
    if cfg.model_path:
        directory = Path(cfg.model_path).expanduser()
        return directory if directory.is_dir() else None
    name = _name(cfg)
    directory = configured_model_dir(Path(cache_dir), name, "rerank")
    if name == DEFAULT_RERANKER_NAME:
        return directory if is_model_cached(Path(cache_dir), DEFAULT_RERANKER) else None
    try:
        find_reranker_files(directory)
    except RerankerError:
        return None
    return directory


def build_reranker(cfg: RerankConfig, cache_dir: Path) -> OnnxReranker:
    """The configured reranker, loaded; InvalidInput when it was never pulled."""
    directory = reranker_cached(cfg, cache_dir)
    if directory is None:
        where = cfg.model_path or str(Path(cache_dir) / "models")
        raise InvalidInput(
            f"recall with rerank needs the reranker model {_name(cfg)}, which is not in {where}",
            hint="Run `embornal model pull --reranker` (or set rerank.model_path).",
        )
    name = cfg.model if cfg.model_path else _name(cfg)  # a path: its directory's name
    return OnnxReranker(directory, name=name, batch_size=cfg.batch_size)


def reranker_loader(cfg: RerankConfig, cache_dir: Path) -> LazyReranker:
    """The configured reranker, loaded on its first use (never at start-up)."""
    return LazyReranker(lambda: build_reranker(cfg, cache_dir), identity=_name(cfg))
