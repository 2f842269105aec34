"""Pseudo-relevance feedback: the words the best keyword hits share, as a second query
(no I/O; docs/decisions/0107-multi-hop-without-a-model.md).

A question that needs two facts often names only one of them; the facts it finds first
name the thing the other one is about. The terms held by the top ``FEEDBACK_FACTS`` hits
that the query lacks are scored by how many of those hits hold them times their idf; the
best ``FEEDBACK_TERMS`` (held by at least two facts, and by no more than half of them)
are searched for, and what that finds is mixed in with ``FusionSettings.feedback_weight``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

__all__ = ["FEEDBACK_FACTS", "FEEDBACK_TERMS", "feedback_terms", "mix_feedback"]

FEEDBACK_FACTS = 3
FEEDBACK_TERMS = 5


def feedback_terms(
    top: Sequence[Sequence[str]],
    query: set[str],
    df: Mapping[str, int],
    total_docs: int,
    count: int = FEEDBACK_TERMS,
) -> list[str]:
    """The ``count`` best terms of the ``top`` facts' terms that ``query`` lacks, best
    first (ties by the term); only terms at least two facts and at most half hold."""
    votes: Counter[str] = Counter()
    for terms in top:
        votes.update(set(terms) - query)
    ceiling = max(2, total_docs // 2)
    scored = []
    for term, n in votes.items():
        held = df.get(term, 0)
        if 2 <= held <= ceiling:
            idf = math.log(1.0 + (total_docs - held + 0.5) / (held + 0.5))
            scored.append((-n * idf, term))
    return [term for _, term in sorted(scored)[:count]]


def mix_feedback(
    first: Mapping[str, float], second: Mapping[str, float], weight: float
) -> dict[str, float]:
    """``(first + weight × second) / (1 + weight)`` over both lists (0 where missing), so
    the mix stays on the keyword scale (1.0 best)."""
    keys = list(first) + [k for k in second if k not in first]
    return {k: (first.get(k, 0.0) + weight * second.get(k, 0.0)) / (1.0 + weight) for k in keys}
