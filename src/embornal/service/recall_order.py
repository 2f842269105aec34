"""The last steps of recall: the signals added after fusion, and the final order.

A time the query names (``ScoreParts.temporal``, decision 0106) lifts a candidate by its
fact's time; with ``FusionSettings.path_diversity`` each candidate then loses for every
better one on its path (``ScoreParts.diversity``, decision 0107); with a reranker, the best
``FusionSettings.rerank_top`` are reordered by it before the cut (decision 0115).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from embornal.domain.facts import Fact
from embornal.domain.ranking import (
    FusionSettings,
    diversity_penalties,
    entity_lifts,
    temporal_lifts,
)
from embornal.domain.relative_time import TimeWindow
from embornal.domain.text import index_terms
from embornal.service.results import RecallHit

if TYPE_CHECKING:
    from embornal.service.rerank import Reranking

__all__ = ["lifts", "ordered", "ranked"]


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
