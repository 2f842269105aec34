"""Rerankers: a cross-encoder that scores (query, fact) pairs (decision 0115).

Importing this package is cheap: names load on first use, and the ONNX back-end imports
onnxruntime, tokenizers and numpy only when a reranker is built.
"""

from __future__ import annotations

from embornal.lazy import exports

_WHERE = {
    "DEFAULT_RERANKER": "embornal.adapters.rerank.factory",
    "DEFAULT_RERANKER_NAME": "embornal.adapters.rerank.factory",
    "FakeReranker": "embornal.adapters.rerank.base",
    "LazyReranker": "embornal.adapters.rerank.base",
    "OnnxReranker": "embornal.adapters.rerank.onnx",
    "Reranker": "embornal.adapters.rerank.base",
    "build_reranker": "embornal.adapters.rerank.factory",
    "reranker_loader": "embornal.adapters.rerank.factory",
}

__all__ = sorted(_WHERE)


__getattr__, __dir__ = exports(__name__, _WHERE)
