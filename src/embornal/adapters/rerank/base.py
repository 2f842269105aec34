"""The reranker interface: a model that scores how well a text answers a query.

A cross-encoder reads the query and one candidate together (unlike an embedding model,
which reads each alone), so it is slower and better at telling close candidates apart;
recall gives it only the best few fused candidates (``FusionSettings.rerank_top``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

__all__ = ["FakeReranker", "LazyReranker", "Reranker"]


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, text) pairs: higher is more relevant; the scale is the model's."""

    @property
    def identity(self) -> str:
        """The model's name, as ``--explain`` and the benchmarks report it."""
        ...

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """One score a text, in the order given."""
        ...


class LazyReranker:
    """A :class:`Reranker` built by ``load`` on its first use, then kept: a memory opened
    with one pays for the model only when a recall asks for reranking."""

    def __init__(self, load: Callable[[], Reranker], identity: str = "reranker") -> None:
        self._load = load
        self._name = identity
        self._model: Reranker | None = None

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def model(self) -> Reranker:
        if self._model is None:
            self._model = self._load()
        return self._model

    @property
    def identity(self) -> str:
        return self._model.identity if self._model is not None else self._name

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return self.model().score(query, texts)


class FakeReranker:
    """A deterministic reranker for tests: the share of the query's words a text holds
    (ties broken by shorter texts), with every call recorded."""

    identity = "fake-reranker"

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        self.calls.append((query, tuple(texts)))
        words = {w for w in query.lower().split() if w}
        out = []
        for text in texts:
            held = {w.strip(".,;:!?") for w in text.lower().split()}
            share = len(words & held) / len(words) if words else 0.0
            out.append(share - len(text) * 1e-6)
        return out
