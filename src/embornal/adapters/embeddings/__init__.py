"""Embedding providers: one interface, several back-ends (see base.py).

Importing this package is cheap: every back-end imports its heavy library
(onnxruntime, sentence-transformers, numpy) only when a provider is built.
"""

from embornal.adapters.embeddings.base import (
    EmbeddingProvider,
    FailingEmbedder,
    FakeEmbedder,
    known_prefixes,
    l2_normalize,
    width_mismatch,
)
from embornal.adapters.embeddings.download import (
    CachedModel,
    ModelSpec,
    ProgressCallback,
    download_model,
    is_model_cached,
    list_models,
    model_dir,
    remove_model,
)
from embornal.adapters.embeddings.factory import (
    DEFAULT_MODEL,
    DEFAULT_MODEL_NAME,
    PROVIDERS,
    build_provider,
)
from embornal.adapters.embeddings.onnx import OnnxEmbedder
from embornal.adapters.embeddings.openai_compat import OpenAICompatEmbedder
from embornal.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_MODEL_NAME",
    "PROVIDERS",
    "CachedModel",
    "EmbeddingProvider",
    "FailingEmbedder",
    "FakeEmbedder",
    "ModelSpec",
    "OnnxEmbedder",
    "OpenAICompatEmbedder",
    "ProgressCallback",
    "SentenceTransformerEmbedder",
    "build_provider",
    "download_model",
    "is_model_cached",
    "known_prefixes",
    "l2_normalize",
    "list_models",
    "model_dir",
    "remove_model",
    "width_mismatch",
]
