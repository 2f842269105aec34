"""Retention (docs/model.md, Recall; decision 0056): how much a live fact is worth keeping, from
the signals the log stores (recalls, confirmations, pins, user weights, links); the
score is derived, never stored, so the whole memory can be scored again at any time.

    retention = wr·recency + wf·access + wc·centrality + wq·c_eff + wu·user_weight
    recency    = 2^(−days since the last recall (or creation) / halflife(kind))
    access     = log(1 + recalls) / log(1 + ACCESS_SATURATION), at most 1
    centrality = log(1 + links in) / log(1 + CENTRALITY_SATURATION), at most 1
    c_eff      = the confidence decayed to now (the kind's half-life, as staleness)
    user_weight: the explicit 0..1 weight, 0.5 when none is set

Every part is within 0..1 and the weights sum to 1, so a score is within 0..1. A pinned
fact, and one of a permanent lifetime, is exempt: no score, never a prune candidate.
The weights, saturations and the default threshold are the one tunable table
(:data:`RETENTION`); the half-lives are the kinds' (:data:`~embornal.domain.spine.decay.DECAY`).
"""

from __future__ import annotations

import math
from datetime import datetime

from embornal.domain.records import record
from embornal.domain.spine.decay import decay_of, effective_confidence
from embornal.domain.spine.strength import elapsed_days

__all__ = ["RETENTION", "RetentionParts", "RetentionTable", "score"]


@record
class RetentionTable:
    """The tunable table: the five weights (summing to 1), where access and links stop
    adding, and the threshold below which ``prune`` proposes to archive."""

    recency: float = 0.35
    access: float = 0.15
    centrality: float = 0.15
    confidence: float = 0.25
    user_weight: float = 0.10
    access_saturation: int = 20
    centrality_saturation: int = 10
    neutral_weight: float = 0.5
    prune_threshold: float = 0.2


RETENTION = RetentionTable()


@record
class RetentionParts:
    """The parts of one fact's score (each 0..1) and the score (None: exempt)."""

    recency: float
    access: float
    centrality: float
    confidence: float
    user_weight: float
    score: float | None


def _saturating(count: int, saturation: int) -> float:
    return min(1.0, math.log1p(max(count, 0)) / math.log1p(saturation))


def score(
    *,
    kind: str,
    now: datetime,
    created_at: datetime,
    last_recall_at: datetime | None,
    recall_count: int,
    confidence: float,
    last_confirmed_at: datetime | None,
    links_in: int,
    user_weight: float | None,
    exempt: bool,
    table: RetentionTable = RETENTION,
) -> RetentionParts:
    """One fact's retention parts and score at ``now``."""
    row = decay_of(kind)
    last = max(created_at, last_recall_at) if last_recall_at is not None else created_at
    recency = math.pow(2.0, -elapsed_days(last, now) / row.halflife_days)
    access = _saturating(recall_count, table.access_saturation)
    centrality = _saturating(links_in, table.centrality_saturation)
    since = last_confirmed_at if last_confirmed_at is not None else created_at
    c_eff = effective_confidence(confidence, row, since, now)
    weight = table.neutral_weight if user_weight is None else user_weight
    total = (
        table.recency * recency
        + table.access * access
        + table.centrality * centrality
        + table.confidence * c_eff
        + table.user_weight * weight
    )
    return RetentionParts(recency, access, centrality, c_eff, weight, None if exempt else total)
