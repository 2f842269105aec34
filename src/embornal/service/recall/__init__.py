"""Recall: the facts a subject may read that best answer a query (docs/model.md, Recall).

The capability in four modules:

* :mod:`.use_case`: ``recall`` (the use case ``Memory.recall`` hands its context to),
  ``record_recall`` (the recall event that raises strength) and the guide left out of the
  hits (decision 0154);
* :mod:`.recaller`: the :class:`Recaller`, ranking by keyword, vector or both, with the
  pseudo-relevance feedback of the keyword list, and the strongest facts when no query;
* :mod:`.order`: what is added to each candidate's relevance (its neighbours, its path,
  the time and names the query gives) and the final order (diversity, the reranker);
* :mod:`.legs`: hybrid recall's keyword and vector parts side by side (decision 0125).

The vectors a recall by meaning reads (:mod:`~embornal.service.semantic`) and the
reranker (:mod:`~embornal.service.rerank`) belong to the memory's context, which every
use case holds; they stay beside it.
"""

from __future__ import annotations

from embornal.service.recall.recaller import MODES, Recaller
from embornal.service.recall.use_case import recall, record_recall, without_guide_hits

__all__ = ["MODES", "Recaller", "recall", "record_recall", "without_guide_hits"]
