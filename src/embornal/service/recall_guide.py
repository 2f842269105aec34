"""Recall without the guide under ``/memory`` (decision 0154).

The guide is taken out of the hits, not out of the scope: a narrower scope would hide the
raw bm25 and widen the keyword window of a subject that reads everything, changing its
ranking. The recall asks for as many more hits as the guide has facts in the subject's
scope, then leaves those out.
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.guide import GUIDE_PATH, is_guide_path
from embornal.domain.scope import ReadScope
from embornal.service.results import RecallHit
from embornal.storage.contract import PastReads, Store

__all__ = ["without_guide_hits"]


def without_guide_hits(
    recall: Callable[[int], list[RecallHit]],
    reads: Store | PastReads,
    n: int,
    vis: ReadScope,
    *,
    guide: bool = False,
) -> list[RecallHit]:
    """The best ``n`` hits ``recall(k)`` gives (its best ``k``) that are not guide facts;
    ``guide``: the best ``n``, guide facts or not."""
    if guide:
        return recall(n)
    extra = sum(r.fact_count for r in reads.subtree(GUIDE_PATH, vis))
    return [h for h in recall(n + extra) if not is_guide_path(h.fact.path)][:n]
