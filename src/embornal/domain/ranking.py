"""The maths that orders recall results (no I/O).

Seed 000: the keyword rank (FTS5 bm25, lower is better, on a scale that moves
with every query) is rescaled so the best hit of the candidate list is 1.0 and
the worst 0.0; the order is ``keyword + 0.5 * strength``. With no query the
order is strength alone. A term that more than half the facts hold tells no
fact from another and leaves the query (the document-frequency ceiling).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "DF_CEILING_MIN_DOCS",
    "DF_CEILING_SHARE",
    "STRENGTH_WEIGHT",
    "ScoreParts",
    "candidate_count",
    "keyword_total",
    "rescale_bm25",
    "select_terms",
]

STRENGTH_WEIGHT = 0.5
DF_CEILING_SHARE = 0.5
# Below this many documents the ceiling would drop most words of a tiny memory.
DF_CEILING_MIN_DOCS = 20


@dataclass(frozen=True)
class ScoreParts:
    """Every component of one result's score, for ``--explain``."""

    total: float
    strength: float
    keyword: float | None = None
    bm25: float | None = None
    vector: float | None = None
    matched_terms: tuple[str, ...] = ()
    method: str = "strength"

    def as_dict(self) -> dict[str, object]:
        return {
            "total": self.total,
            "method": self.method,
            "keyword": self.keyword,
            "bm25": self.bm25,
            "vector": self.vector,
            "strength": self.strength,
            "strength_weight": STRENGTH_WEIGHT,
            "matched_terms": list(self.matched_terms),
        }


def candidate_count(limit: int) -> int:
    """How many hits one index returns before the mix reorders them."""
    return max(limit * 4, 50)


def rescale_bm25(ranks: Sequence[float]) -> list[float]:
    """Map FTS5 bm25 values (negative, best smallest) onto 1.0 (best) .. 0.0 (worst).

    With no spread (one hit, or all tied) every hit scores 1.0.
    """
    if not ranks:
        return []
    best, worst = min(ranks), max(ranks)
    spread = worst - best
    if spread <= 1e-12:
        return [1.0 for _ in ranks]
    return [(worst - r) / spread for r in ranks]


def keyword_total(keyword: float, strength: float) -> float:
    return keyword + STRENGTH_WEIGHT * strength


def select_terms(terms: Sequence[str], df: Mapping[str, int], total_docs: int) -> list[str]:
    """Drop terms held by more than half the documents; keep the rarest if all would go.

    Terms no document holds are dropped too (they cannot match).
    """
    present = [t for t in terms if df.get(t, 0) > 0]
    if total_docs < DF_CEILING_MIN_DOCS:
        return present
    ceiling = int(total_docs * DF_CEILING_SHARE)
    kept = [t for t in present if df[t] <= ceiling]
    if kept or not present:
        return kept
    return [min(present, key=lambda t: df[t])]
