"""Recall after the candidates: the signals added to their relevance, and the final order.

With a query, each candidate gains from its neighbours on the same path that matched too
(``FusionSettings.neighbour_weights``, decision 0010) and, with ``path_weight``, from the
best other candidate on its path (decision 0113); places on a path are counted over the
facts the caller may read. A time the query names (``ScoreParts.temporal``, decision 0106)
lifts a candidate by its fact's own time and, when its history context gives one, the time
of the event it tells of (``event_at``, decisions 0088 and 0114); the names it names lift
the facts that hold them (``ScoreParts.entity``).

Then the order: with ``FusionSettings.path_diversity`` each candidate loses for every
better one on its path (``ScoreParts.diversity``, decision 0107); with a reranker, the
best ``FusionSettings.rerank_top`` are reordered by it before the cut (decision 0115).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime

from embornal.domain.access.scope import ReadScope
from embornal.domain.clock import parse_time
from embornal.domain.facts.fact import Fact
from embornal.domain.recall.ranking import (
    STRENGTH_WEIGHT,
    FusionSettings,
    diversity_penalties,
    entity_lifts,
    neighbour_boost,
    on_shared_paths,
    path_lifts,
    temporal_lifts,
    within_reach,
)
from embornal.domain.recall.relative_time import TimeWindow
from embornal.domain.recall.text import index_terms
from embornal.hints import TYPE_CHECKING, Any
from embornal.service.results import RecallHit

if TYPE_CHECKING:
    from embornal.service.rerank import Reranking
    from embornal.storage.contract.store import PastReads, Store

__all__ = ["context_gains", "event_times", "lifts", "ordered", "ranked"]


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
    timeline = getattr(store, "timeline", None)  # a past time's reads have none
    if timeline is None:
        return {}
    rows = timeline.context_rows(sorted(facts), vis)
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


def lifts(
    facts: Mapping[str, Fact],
    keys: Iterable[str],
    spines: Mapping[str, Mapping[str, Any]],
    windows: tuple[TimeWindow, ...],
    settings: FusionSettings,
    entities: tuple[str, ...] = (),
    events: Mapping[str, datetime] | None = None,
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Each candidate's lift before its neighbours (the spine, the time named and the
    names named), the time part alone (empty when the query names no time) and the names'
    part alone (empty when the query names none or ``entity_weight`` is 0).

    A fact's time is its own (``created_at``) and, when its history context gives one, the
    time of the event it tells of (``events``, decision 0114): the closer of the two counts.
    """
    keyed = list(keys)
    at = {k: facts[k].created_at for k in keyed}
    times = temporal_lifts(at, windows, settings.temporal_weight)
    told = {k: events[k] for k in keyed if events and k in events}
    for k, lift in temporal_lifts(told, windows, settings.temporal_weight).items():
        times[k] = max(times.get(k, 0.0), lift)
    names = entity_lifts(
        {k: index_terms(facts[k].content) for k in keyed} if entities else {},
        entities,
        settings.entity_weight,
    )
    raised = {k: float(spines[k]["spine"]) + times.get(k, 0.0) + names.get(k, 0.0) for k in keyed}
    return raised, times, names


def ordered(
    hits: list[RecallHit],
    n: int,
    wanted: set[str] | None = None,
    bases: dict[str, float] | None = None,
    diversity: float = 0.0,
) -> list[RecallHit]:
    """Best first; ties to the better total before the spine (``bases``), then the later.
    With ``diversity``, each loses that much for every better hit on its path first."""
    base = bases or {}

    def rank(h: RecallHit) -> tuple[float, float, object, str]:
        return (h.score, base.get(h.fact.id, 0.0), h.fact.created_at, h.fact.id)

    hits.sort(key=rank, reverse=True)
    if diversity > 0.0:
        cut = diversity_penalties(
            [h.fact.id for h in hits], {h.fact.id: h.fact.path for h in hits}, diversity
        )
        hits = [
            replace(
                h,
                score=h.score - cut[h.fact.id],
                parts=replace(
                    h.parts, total=h.parts.total - cut[h.fact.id], diversity=cut[h.fact.id]
                ),
            )
            for h in hits
        ]
        hits.sort(key=rank, reverse=True)
    top = hits[:n]
    if not wanted:
        return top
    return [replace(h, parts=replace(h.parts, matched_terms=_matched(h.fact, wanted))) for h in top]


def _matched(fact: Fact, wanted: set[str]) -> tuple[str, ...]:
    if not wanted:
        return ()
    return tuple(sorted(wanted.intersection(index_terms(fact.content))))


def ranked(
    reranking: Reranking | None,
    query: str,
    hits: list[RecallHit],
    n: int,
    wanted: set[str] | None,
    bases: dict[str, float],
    fusion: FusionSettings,
) -> list[RecallHit]:
    """Recall's last step: the candidates in order (:func:`ordered`), the first ``n``; with
    ``reranking``, the best ``fusion.rerank_top`` reranked before the cut."""
    if reranking is None:
        return ordered(hits, n, wanted, bases, fusion.path_diversity)
    top = max(0, fusion.rerank_top)
    best = ordered(hits, max(n, top), wanted, bases, fusion.path_diversity)
    return reranking.apply(query, best, top)[:n]
