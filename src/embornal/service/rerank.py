"""The cross-encoder reranker in recall (decision 0115): the best fused candidates are
rescored by a model that reads the query and each fact together.

``recall(..., rerank=True)`` gives the best ``FusionSettings.rerank_top`` candidates
(after fusion, the spine, time and diversity) to the memory's reranker and orders them
by its score; the candidates below keep their order under them. The totals of the
reranked places are handed out again in the new order (``ranking.rerank_places``), so
the scores still fall down the list; ``ScoreParts.rerank`` is the model's score and
``rerank_before`` the place fusion gave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from embornal.domain.recall.ranking import rerank_places
from embornal.errors import EmbornalError, InvalidInput, RerankerError
from embornal.hints import TYPE_CHECKING, TypeAlias, cast
from embornal.service.results import RecallHit

if TYPE_CHECKING:
    from embornal.adapters.rerank.base import Reranker

__all__ = ["RerankSource", "Reranking"]

# Text, for the type checker: a ``Union`` of names would have ``typing`` compile each one
# when the module is imported (the first compile of a process costs a short command).
RerankSource: TypeAlias = "Reranker | Callable[[], Reranker] | None"
"""A reranker, a function that builds one on first use, or None (no reranking)."""


class Reranking:
    """The reranker of a memory, built when a recall first asks for it."""

    def __init__(self, source: RerankSource = None) -> None:
        self._source = source
        self._model: Reranker | None = None

    @property
    def configured(self) -> bool:
        return self._source is not None

    def require(self) -> Reranker:
        """The reranker, loaded; InvalidInput when the memory has none."""
        if self._model is None:
            source = self._source
            if source is None:
                raise InvalidInput(
                    "recall with rerank needs a reranker model",
                    hint="Run `embornal model pull --reranker` (in Python: "
                    "Memory.open(..., reranker=...)), or recall without rerank.",
                )
            if hasattr(source, "score"):
                self._model = cast("Reranker", source)
            else:
                self._model = source()
        return self._model

    def when(self, asked: bool) -> Reranking | None:
        """This reranking, loaded, if ``asked`` (an error before anything is read when the
        memory has no reranker); else None."""
        if not asked:
            return None
        self.require()
        return self

    def apply(self, query: str, hits: Sequence[RecallHit], top: int) -> list[RecallHit]:
        """``hits`` (best first) with the first ``top`` in the reranker's order."""
        head, rest = list(hits[:top]), list(hits[top:])
        if not head:
            return list(hits)
        model = self.require()
        try:
            scores = model.score(query, [h.fact.content for h in head])
        except EmbornalError:
            raise
        except Exception as e:  # broad: a model's library raises its own errors (ONNX, torch)
            raise RerankerError(f"the reranker failed: {type(e).__name__}: {e}") from e
        if len(scores) != len(head):
            raise RerankerError("the reranker returned a different number of scores")
        places = rerank_places([h.score for h in head], scores)
        ranked = [
            replace(
                head[i],
                score=total,
                parts=replace(
                    head[i].parts, total=total, rerank=float(scores[i]), rerank_before=i + 1
                ),
            )
            for i, total in places
        ]
        return ranked + rest
