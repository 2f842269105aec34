"""Shared retrieval maths: per-question scores and their plain means.

Two families live here:

* the LoCoMo evidence scores over the *selected* turns (after the context budget):
  :func:`recall_fraction`, :func:`hit`, :func:`reciprocal_rank`;
* the LongMemEval session scores as upstream ``src/retrieval/eval_utils.py`` computes them:
  :func:`recall_any`, :func:`recall_all`, :func:`ndcg_any` (binary relevance, upstream's DCG).

All functions are pure; identifiers are plain strings and relevance is binary.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

__all__ = [
    "dcg",
    "hit",
    "mean",
    "mean_by_group",
    "ndcg_any",
    "recall_all",
    "recall_any",
    "recall_fraction",
    "reciprocal_rank",
    "summarize",
]


def mean(values: Iterable[float]) -> float:
    """The plain mean; 0.0 for no values."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


# --------------------------------------------------------------------------- LoCoMo


def recall_fraction(selected: Sequence[str], gold: Collection[str]) -> float:
    """``|selected ∩ gold| / |gold|``; 0.0 when ``gold`` is empty."""
    wanted = set(gold)
    if not wanted:
        return 0.0
    return len(wanted.intersection(selected)) / len(wanted)


def hit(selected: Sequence[str], gold: Collection[str]) -> float:
    """1.0 if any gold id is among ``selected``, else 0.0."""
    wanted = set(gold)
    return 1.0 if any(doc in wanted for doc in selected) else 0.0


def reciprocal_rank(selected: Sequence[str], gold: Collection[str]) -> float:
    """``1 / position`` (1-based) of the first gold id in ``selected``, else 0.0."""
    wanted = set(gold)
    for position, doc in enumerate(selected, start=1):
        if doc in wanted:
            return 1.0 / position
    return 0.0


# --------------------------------------------------------------------------- LongMemEval


def recall_any(ranked_ids: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 if any gold id is among the first ``k`` ranked ids (upstream ``recall_any``)."""
    top = set(ranked_ids[:k])
    return 1.0 if any(doc in top for doc in gold) else 0.0


def recall_all(ranked_ids: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 if every gold id is among the first ``k`` ranked ids (upstream ``recall_all``).

    As upstream (``all`` over an empty list), an empty ``gold`` gives 1.0.
    """
    top = set(ranked_ids[:k])
    return 1.0 if all(doc in top for doc in gold) else 0.0


def dcg(relevances: Sequence[float], k: int) -> float:
    """Discounted cumulative gain of the first ``k`` relevances, upstream's variant.

    Upstream computes ``rel[0] + sum(rel[i] / log2(i + 1) for i >= 1)`` (0-based ``i``), so
    ranks 1 and 2 both weigh 1 and rank ``r >= 2`` weighs ``1 / log2(r)``. This is *not*
    the textbook ``1 / log2(r + 1)``; it is kept so the numbers compare with published ones.
    """
    gains = list(relevances[:k])
    if not gains:
        return 0.0
    return gains[0] + math.fsum(gain / math.log2(rank) for rank, gain in enumerate(gains[1:], 2))


def ndcg_any(
    ranked_ids: Sequence[str], gold: Collection[str], corpus_ids: Sequence[str], k: int
) -> float:
    """Normalised DCG at ``k`` with binary relevance (upstream ``ndcg``).

    ``ranked_ids`` are the ids of the ranked corpus entries, best first; ``corpus_ids`` are the
    ids of *every* entry of the corpus, duplicates included: the ideal ranking puts all
    relevant entries first, so an id listed twice in the corpus counts twice there. Ranked
    entries are judged by id, so both copies of a duplicated gold id are relevant.
    """
    wanted = set(gold)
    actual = [1.0 if doc in wanted else 0.0 for doc in ranked_ids]
    ideal = sorted((1.0 if doc in wanted else 0.0 for doc in corpus_ids), reverse=True)
    ideal_dcg = dcg(ideal, k)
    if ideal_dcg == 0.0:
        return 0.0
    return dcg(actual, k) / ideal_dcg


# --------------------------------------------------------------------------- aggregation


def mean_by_group(
    rows: Sequence[Mapping[str, float]], groups: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Plain means of every metric of ``rows``, per group, in order of first appearance.

    ``rows[i]`` holds the metrics of question ``i`` and ``groups[i]`` its group (a category,
    a question type). Each group's result also carries ``n``, its number of questions.
    """
    if len(rows) != len(groups):
        raise ValueError(f"{len(rows)} rows but {len(groups)} groups")
    members: dict[str, list[Mapping[str, float]]] = {}
    for row, group in zip(rows, groups, strict=True):
        members.setdefault(group, []).append(row)
    return {group: summarize(items) for group, items in members.items()}


def summarize(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Plain mean of each metric over ``rows`` (keys of the first row), plus ``n``."""
    names = list(rows[0]) if rows else []
    result: dict[str, float] = {name: mean(row[name] for row in rows) for name in names}
    result["n"] = len(rows)
    return result
