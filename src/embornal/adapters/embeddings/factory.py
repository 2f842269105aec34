"""Build the embedding provider that ``embedding:`` in config.yaml asks for.

``provider``:

- ``off``: no vectors; recall is by keyword only.
- ``auto`` (default): the local ONNX model when it is already on disk
  (``model_path``, or ``model`` / the default model in the cache), otherwise
  none. ``auto`` never downloads: ``embornal model pull`` does that.
- ``onnx``: the local ONNX model, downloaded into the cache on first use when
  no ``model_path`` is given.
- ``sentence-transformers``: ``model_path`` or ``model`` through that library.
- ``openai``: an OpenAI-compatible ``/v1/embeddings`` server at ``base_url``.

Whatever the provider, its vectors must be ``embedding.dims`` wide, since the
vector index was created at that width; otherwise VectorWidthMismatch.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

from embornal.adapters.config import EmbeddingConfig
from embornal.adapters.embeddings.base import EmbeddingProvider, width_mismatch
from embornal.adapters.embeddings.download import (
    ModelSpec,
    ProgressCallback,
    configured_model_dir,
    download_model,
    is_model_cached,
    resolve_onnx_spec,
)
from embornal.adapters.embeddings.onnx import OnnxEmbedder, find_model_files
from embornal.adapters.embeddings.openai_compat import OpenAICompatEmbedder
from embornal.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder
from embornal.errors import ConfigError, EmbeddingError

__all__ = ["DEFAULT_MODEL", "DEFAULT_MODEL_NAME", "PROVIDERS", "build_provider"]

logger = logging.getLogger(__name__)

DEFAULT_MODEL = ModelSpec(
    repo="intfloat/multilingual-e5-small",
    files=("onnx/model.onnx", "tokenizer.json", "config.json"),
    revision="main",
    dims=384,
    int8=True,
)
"""The default local model (see docs/decisions/0118-the-default-model-by-quality-per-second.md):
multilingual-e5-small, 384-d, MIT, the fp32 ONNX export of its own repository, checked
against the hub's sha256 and quantized to int8 on pull (``onnx/model_int8.onnx``, which
is the file that loads). multilingual-e5-base (768-d) stays a choice:
``embedding.model: intfloat/multilingual-e5-base`` with ``embedding.dims: 768``."""

DEFAULT_MODEL_NAME = DEFAULT_MODEL.repo

PROVIDERS = ("auto", "off", "onnx", "sentence-transformers", "openai")

_ONNX_MODULES = ("onnxruntime", "tokenizers", "numpy")


def build_provider(
    cfg: EmbeddingConfig,
    cache_dir: Path,
    *,
    progress: ProgressCallback | None = None,
) -> EmbeddingProvider | None:
    """The provider for ``cfg``, or None when recall is keyword-only.

    ``progress(filename, done_bytes, total_bytes)`` reports a download, which
    only the ``onnx`` provider makes (never ``auto``).
    """
    kind = cfg.provider.strip().lower().replace("_", "-")
    provider: EmbeddingProvider | None
    if kind == "off":
        return None
    if kind == "auto":
        provider = _auto(cfg, Path(cache_dir))
    elif kind == "onnx":
        provider = _onnx(cfg, Path(cache_dir), progress)
    elif kind == "sentence-transformers":
        source = cfg.model_path or cfg.model or DEFAULT_MODEL_NAME
        provider = SentenceTransformerEmbedder(
            Path(source).expanduser() if cfg.model_path else source,
            name=cfg.model or source,
            query_prefix=cfg.query_prefix,
            document_prefix=cfg.document_prefix,
            batch_size=cfg.batch_size,
            cache_folder=Path(cache_dir) / "sentence-transformers",
        )
    elif kind == "openai":
        if not cfg.base_url or not cfg.model:
            raise ConfigError(
                "the openai embedding provider needs embedding.base_url and embedding.model",
                hint="For example base_url: http://127.0.0.1:11434/v1 and the model's name.",
            )
        provider = OpenAICompatEmbedder(
            cfg.base_url,
            cfg.model,
            api_key_env=cfg.api_key_env,
            dims=cfg.dims,
            query_prefix=cfg.query_prefix,
            document_prefix=cfg.document_prefix,
            input_type=cfg.input_type,
            batch_size=cfg.batch_size,
        )
    else:
        raise ConfigError(
            f"unknown embedding provider {cfg.provider!r}",
            hint="embedding.provider is one of: " + ", ".join(PROVIDERS) + ".",
        )
    if provider is not None and provider.dims != cfg.dims:
        raise width_mismatch(provider.identity, provider.dims, cfg.dims)
    return provider


def _onnx_available() -> bool:
    try:
        return all(importlib.util.find_spec(name) is not None for name in _ONNX_MODULES)
    except (ImportError, ValueError):
        return False


def _cached_model_dir(cache_dir: Path, name: str) -> Path | None:
    """The cache directory of ``name`` if its ONNX files are all there."""
    directory = configured_model_dir(cache_dir, name, "embedding")
    if name == DEFAULT_MODEL_NAME:
        return directory if is_model_cached(cache_dir, DEFAULT_MODEL) else None
    if not directory.is_dir():
        return None
    try:
        find_model_files(directory)
    except EmbeddingError:
        return None
    return directory


def _onnx_from(directory: Path, name: str | None, cfg: EmbeddingConfig) -> OnnxEmbedder:
    return OnnxEmbedder(
        directory,
        name=name,
        query_prefix=cfg.query_prefix,
        document_prefix=cfg.document_prefix,
        batch_size=cfg.batch_size,
    )


def _auto(cfg: EmbeddingConfig, cache_dir: Path) -> EmbeddingProvider | None:
    name: str | None
    if cfg.model_path:
        directory = Path(cfg.model_path).expanduser()
        name = cfg.model
    else:
        name = cfg.model or DEFAULT_MODEL_NAME
        cached = _cached_model_dir(cache_dir, name)
        if cached is None:
            logger.debug("no local embedding model %s in %s: keyword recall only", name, cache_dir)
            return None
        directory = cached
    if not _onnx_available():
        logger.warning(
            "the embedding model %s is on disk but onnxruntime, tokenizers or numpy is "
            "missing: keyword recall only (pip install 'embornal[semantic]')",
            name or directory,
        )
        return None
    return _onnx_from(directory, name, cfg)


def _onnx(
    cfg: EmbeddingConfig, cache_dir: Path, progress: ProgressCallback | None
) -> EmbeddingProvider:
    if cfg.model_path:
        return _onnx_from(Path(cfg.model_path).expanduser(), cfg.model, cfg)
    if not _onnx_available():
        raise EmbeddingError(
            "the onnx embedding provider needs onnxruntime, tokenizers and numpy",
            hint="Install the semantic extra: pip install 'embornal[semantic]'.",
        )
    name = cfg.model or DEFAULT_MODEL_NAME
    directory = _cached_model_dir(cache_dir, name)
    if directory is None:
        spec = DEFAULT_MODEL if name == DEFAULT_MODEL_NAME else resolve_onnx_spec(name)
        directory = download_model(spec, cache_dir, progress=progress)
    return _onnx_from(directory, name, cfg)
