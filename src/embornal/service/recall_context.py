"""Recall's reads beyond the candidates: the neighbours on their paths, and the event
times of their history context.

With a query, each candidate gains from its neighbours on the same path that matched too
(``FusionSettings.neighbour_weights``, decision 0010) and, with ``path_weight``, from the
best other candidate on its path (decision 0113). A time the query names is read against
a fact's own time and, when its history context gives one, the time of the event it tells
of (``event_at``, decisions 0088 and 0114).
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import parse_time
from embornal.domain.facts import Fact
from embornal.domain.ranking import (
    STRENGTH_WEIGHT,
    FusionSettings,
    neighbour_boost,
    on_shared_paths,
    path_lifts,
    within_reach,
)
from embornal.domain.relative_time import TimeWindow
from embornal.domain.scope import ReadScope
from embornal.storage.contract import PastReads, Store

__all__ = ["context_gains", "event_times"]


def event_times(
    store: Store | PastReads,
    facts: dict[str, Fact],
    windows: tuple[TimeWindow, ...],
    fusion: FusionSettings,
    vis: ReadScope,
) -> dict[str, datetime]:
    """When the events the candidates tell of happened (``event_at`` of their history
    context), read only when the query names a time; none when looking back (the reads of
    a past time hold no history context)."""
    if not windows or not facts or fusion.temporal_weight <= 0.0:
        return {}  # before the look-up below: it loads the store's timeline part
    read = getattr(store, "context_rows", None)
    if read is None:
        return {}
    rows = read(sorted(facts), vis)
    return {r.fact.id: parse_time(r.event_at) for r in rows if r.event_at is not None}


def context_gains(
    store: Store | PastReads,
    fusion: FusionSettings,
    relevance: dict[str, float],
    facts: dict[str, Fact],
    strengths: dict[str, float],
    n: int,
    vis: ReadScope,
    strength_scale: float = 1.0,
    lifts: dict[str, float] | None = None,
) -> tuple[dict[str, float], dict[str, float]]:
    """Each candidate's gain from its neighbours on the same path (empty when off), and
    from the best other candidate on its path (``path_weight``; empty when off).

    Neighbours are looked up only for candidates that share a path with another
    matching candidate and could still reach the top ``n``: nothing else can gain,
    or be shown (the others' gain stays 0.0). Places on a path are counted over the
    facts ``vis`` lets through, so a hidden fact changes nothing.
    """
    weights = fusion.neighbour_weights
    paths = {key: facts[key].path for key in relevance}
    along = path_lifts(relevance, paths, fusion.path_weight)
    if not any(w > 0.0 for w in weights):
        return {}, along
    lift = lifts or {}
    low = min(lift.values(), default=0.0)  # a shift shared by all changes no reach
    extra = {
        key: STRENGTH_WEIGHT * strength_scale * strengths[key]
        + (lift.get(key, low) - low) * strength_scale
        + along.get(key, 0.0)
        for key in relevance
    }
    most = sum(w for w in weights if w > 0.0)
    wanted = within_reach(on_shared_paths(paths, relevance), relevance, extra, paths, n, most)
    if not wanted:
        return dict.fromkeys(relevance, 0.0), along
    near = store.neighbours(wanted, reach=len(weights), scope=vis)
    return neighbour_boost(relevance, near, weights), along
