"""Embeddings with the ``sentence-transformers`` library (PyTorch).

The model is a local directory or a name the library resolves (and may
download into ``cache_folder``; with ``HF_HUB_OFFLINE=1`` it only reads its
cache). ``sentence_transformers`` is imported when a provider is built, never
when this module is imported.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from embornal.adapters.embeddings.base import LocalModelEmbedder
from embornal.errors import EmbeddingError

__all__ = ["SentenceTransformerEmbedder"]


class SentenceTransformerEmbedder(LocalModelEmbedder):
    """An :class:`~embornal.adapters.embeddings.base.EmbeddingProvider` over sentence-transformers.

    ``name`` is the model's name in ``identity`` (default: ``model`` as given).
    A prefix left ``None`` takes the model family's known prefix, if any.
    """

    def __init__(
        self,
        model: str | os.PathLike[str],
        *,
        name: str | None = None,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        batch_size: int = 32,
        device: str = "cpu",
        cache_folder: Path | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        # Idle OpenMP threads of PyTorch spin by default; with one core taken by other
        # work that turns a 15 ms query into ~500 ms (benchmarks/RESULTS.md). Only
        # takes effect if torch is not yet loaded, and never overrides the user's choice.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            library: Any = importlib.import_module("sentence_transformers")
        except ImportError as e:
            raise EmbeddingError(
                "the sentence-transformers embedding provider needs the "
                "sentence-transformers package",
                hint="pip install 'embornal[sentence-transformers]'",
            ) from e
        source = os.fspath(model)
        self._name = name or source
        self._set_prefixes(query_prefix, document_prefix)
        self.batch_size = batch_size
        try:
            self._model: Any = library.SentenceTransformer(
                source,
                device=device,
                cache_folder=None if cache_folder is None else os.fspath(cache_folder),
            )
        except Exception as e:  # broad: torch, the Hub and the library raise their own
            raise EmbeddingError(
                f"sentence-transformers cannot load the model {source}: {e}",
                hint="Check embedding.model / embedding.model_path; offline, the model "
                "must already be on disk.",
            ) from e
        # get_embedding_dimension since sentence-transformers 5; the old name warns.
        width_of = getattr(self._model, "get_embedding_dimension", None)
        if width_of is None:
            width_of = self._model.get_sentence_embedding_dimension
        width = width_of()
        if not isinstance(width, int):
            width = len(self._embed(["dimension probe"])[0])
        self._dims = width

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                show_progress_bar=False,
                convert_to_numpy=True,
                normalize_embeddings=True,
            )
        except Exception as e:  # broad: torch and the library raise their own errors
            raise EmbeddingError(f"sentence-transformers failed to embed: {e}") from e
        result: list[list[float]] = vectors.astype("float32").tolist()
        return result
