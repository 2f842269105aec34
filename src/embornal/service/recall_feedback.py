"""The keyword list with pseudo-relevance feedback mixed in (``FusionSettings.feedback_weight``;
domain/feedback.py). Off (weight 0) it is the keyword list itself."""

from __future__ import annotations

from embornal.domain.facts import Fact
from embornal.domain.feedback import FEEDBACK_FACTS, feedback_terms, mix_feedback
from embornal.domain.ranking import DF_CEILING_MIN_DOCS, candidate_count, rescale_bm25
from embornal.domain.scope import ReadScope
from embornal.domain.text import query_terms
from embornal.storage.contract import PastReads, Store

__all__ = ["with_feedback"]


def with_feedback(
    store: Store | PastReads,
    found: list[tuple[Fact, float]],
    scaled: list[float],
    selected: list[str],
    n: int,
    vis: ReadScope,
    under: str | None,
    weight: float,
) -> tuple[list[tuple[Fact, float]], list[float]]:
    """``found`` (facts and raw bm25) and its rescaled scores, with the facts the feedback
    terms find mixed in, best first. Only facts ``vis`` reads give terms or are found. Off
    in a memory of fewer than ``DF_CEILING_MIN_DOCS`` facts, as the df ceiling is."""
    if weight <= 0.0 or not found:
        return found, scaled
    total = store.doc_count()
    if total < DF_CEILING_MIN_DOCS:  # a tiny memory: its shared words are mostly chance
        return found, scaled
    top = [query_terms(f.content) for f, _ in found[:FEEDBACK_FACTS]]
    asked = set(selected)
    words = sorted({t for terms in top for t in terms} - asked)
    if not words:
        return found, scaled
    extra = feedback_terms(top, asked, store.term_df(words), total)
    if not extra:
        return found, scaled
    more = store.keyword_search(extra, candidate_count(n), vis, under=under)
    second = dict(zip((f.id for f, _ in more), rescale_bm25([r for _, r in more]), strict=True))
    first = dict(zip((f.id for f, _ in found), scaled, strict=True))
    mixed = mix_feedback(first, second, weight)
    pairs = {f.id: (f, r) for f, r in more} | {f.id: (f, r) for f, r in found}
    order = sorted(mixed, key=lambda k: (-mixed[k], k))
    return [pairs[k] for k in order], [mixed[k] for k in order]
