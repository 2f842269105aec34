"""Embedding providers: one interface, several back-ends (see base.py).

Importing this package is cheap: names load on first use, and every back-end
imports its heavy library (onnxruntime, sentence-transformers, numpy) only when
a provider is built.
"""

from __future__ import annotations

from embornal.lazy import exports

_WHERE = {
    "CachedModel": "embornal.adapters.embeddings.download",
    "DEFAULT_MODEL": "embornal.adapters.embeddings.factory",
    "DEFAULT_MODEL_NAME": "embornal.adapters.embeddings.factory",
    "EmbeddingProvider": "embornal.adapters.embeddings.base",
    "FailingEmbedder": "embornal.adapters.embeddings.base",
    "FakeEmbedder": "embornal.adapters.embeddings.base",
    "ModelSpec": "embornal.adapters.embeddings.download",
    "OnnxEmbedder": "embornal.adapters.embeddings.onnx",
    "OpenAICompatEmbedder": "embornal.adapters.embeddings.openai_compat",
    "PROVIDERS": "embornal.adapters.embeddings.factory",
    "ProgressCallback": "embornal.adapters.embeddings.download",
    "SentenceTransformerEmbedder": "embornal.adapters.embeddings.sentence_transformers",
    "build_provider": "embornal.adapters.embeddings.factory",
    "download_model": "embornal.adapters.embeddings.download",
    "is_model_cached": "embornal.adapters.embeddings.download",
    "known_prefixes": "embornal.adapters.embeddings.base",
    "l2_normalize": "embornal.adapters.embeddings.base",
    "list_models": "embornal.adapters.embeddings.download",
    "model_dir": "embornal.adapters.embeddings.download",
    "remove_model": "embornal.adapters.embeddings.download",
    "width_mismatch": "embornal.adapters.embeddings.base",
}

__all__ = sorted(_WHERE)


__getattr__, __dir__ = exports(__name__, _WHERE)
