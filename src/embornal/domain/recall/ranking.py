"""The maths that orders recall results (no I/O).

docs/model.md, Recall: the keyword rank (FTS5 bm25, lower is better, on a scale that moves
with every query) is rescaled so the best hit of the candidate list is 1.0 and
the worst 0.0; the order is ``keyword + 0.5 * strength``. With no query the
order is strength alone. A term that more than half the facts hold tells no
fact from another and leaves the query (the document-frequency ceiling).

Context: a fact written next to a relevant fact on the same path (the turn before or
after it in a conversation, the next line of a note) is often what the question needs;
each candidate gains, for each distance ``d`` along the path, ``neighbour_weights[d-1]``
times the best relevance of the candidates ``d`` places before or after it (see
docs/decisions/0010-neighbour-context.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime

from embornal.domain.facts.fact import Fact
from embornal.domain.recall.query_entities import entity_share
from embornal.domain.recall.relative_time import TimeWindow, closeness
from embornal.domain.records import record
from embornal.domain.spine.decay import staleness
from embornal.domain.values import value
from embornal.hints import Any

__all__ = [
    "DF_CEILING_MIN_DOCS",
    "DF_CEILING_SHARE",
    "ENTITY_WEIGHT",
    "FEEDBACK_WEIGHT",
    "NEIGHBOUR_WEIGHTS",
    "RERANK_TOP",
    "RRF_K",
    "SPINE_WEIGHTS",
    "STRENGTH_WEIGHT",
    "TEMPORAL_WEIGHT",
    "VECTOR_FLOOR",
    "VECTOR_SHARE",
    "FusionSettings",
    "ScoreParts",
    "SpineWeights",
    "bm25_share",
    "candidate_count",
    "cut_vector",
    "diversity_penalties",
    "entity_lifts",
    "fuse_linear",
    "fuse_rrf",
    "keyword_scores",
    "mix_linear",
    "neighbour_boost",
    "on_shared_paths",
    "path_lifts",
    "rerank_places",
    "rescale_bm25",
    "rescale_similarity",
    "select_terms",
    "spine_lift",
    "spine_parts",
    "temporal_lifts",
    "vector_scores",
    "within_reach",
]

STRENGTH_WEIGHT = 0.5
DF_CEILING_SHARE = 0.5
# Below this many documents the ceiling would drop most words of a tiny memory.
DF_CEILING_MIN_DOCS = 20


@value
class ScoreParts:
    """Every component of one result's score, for ``--explain``.

    ``keyword`` is the rescaled bm25 (1.0 best of the candidates), ``bm25`` the raw FTS5
    value (None for a caller that does not read the whole memory: FTS5's statistics count
    every fact), ``vector`` the cosine similarity, ``vector_scaled`` what hybrid linear
    fusion took of it (rescaled over the candidates, 1.0 best), ``*_rank`` the 1-based
    rank in each list (RRF reads them).
    """

    total: float
    strength: float
    keyword: float | None = None
    bm25: float | None = None
    vector: float | None = None
    matched_terms: tuple[str, ...] = ()
    method: str = "strength"
    keyword_rank: int | None = None
    vector_rank: int | None = None
    neighbour: float | None = None
    vector_scaled: float | None = None
    # Time named in the query (domain/recall/relative_time.py, decision 0106): ``temporal`` is what
    # the fact's time added (None when the query names no time), ``time_window`` the phrases
    # read and their intervals; ``diversity`` what its place on a crowded path took away.
    temporal: float | None = None
    time_window: str | None = None
    diversity: float | None = None
    # What the best other candidate on the fact's path gave (``FusionSettings.path_weight``;
    # None when off).
    path: float | None = None
    # Names in the query (domain/recall/query_entities.py, decision 0113): ``entity`` is what the
    # fact's share of them added (None when the query names none or the signal is off),
    # ``entities`` the names read, as index terms.
    entity: float | None = None
    entities: tuple[str, ...] = ()
    # The justification spine (see :class:`SpineWeights`): the stored confidence ``c``,
    # ``c_eff`` now, whether the fact is stale, its pin and user weight, and ``spine``, what
    # they added to the total (0.0 for a person's fact that is not stale, pinned or weighted).
    c: float | None = None
    c_eff: float | None = None
    stale: bool = False
    pinned: bool = False
    user_weight: float | None = None
    spine: float = 0.0
    # The cross-encoder (decision 0115): its score of (query, fact), and the 1-based place
    # the hit had after fusion, before the reranker reordered the best ``rerank_top``.
    rerank: float | None = None
    rerank_before: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "total": self.total,
            "method": self.method,
            "keyword": self.keyword,
            "bm25": self.bm25,
            "keyword_rank": self.keyword_rank,
            "vector": self.vector,
            "vector_scaled": self.vector_scaled,
            "vector_rank": self.vector_rank,
            "neighbour": self.neighbour,
            "temporal": self.temporal,
            "time_window": self.time_window,
            "diversity": self.diversity,
            "path": self.path,
            "entity": self.entity,
            "entities": list(self.entities),
            "rerank": self.rerank,
            "rerank_before": self.rerank_before,
            "strength": self.strength,
            "strength_weight": STRENGTH_WEIGHT,
            "c": self.c,
            "c_eff": self.c_eff,
            "stale": self.stale,
            "pinned": self.pinned,
            "user_weight": self.user_weight,
            "spine": self.spine,
            "matched_terms": list(self.matched_terms),
        }


@record
class SpineWeights:
    """How the justification spine moves a recall score: the one place to tune it.

    ``spine = confidence·(c − reference) − stale·[stale] + pinned·[pinned]
    + user_weight·(w − neutral_weight)``, added to the total (scaled like the strength term
    in reciprocal-rank fusion). A fact stated by a person (c = the person prior), not stale,
    not pinned and without a weight adds exactly 0.0, so it ranks as before the spine. The
    weights are small beside a keyword match (0..1) so they reorder close hits only: a
    stale fact stays recallable, a pin lifts a near-miss over its neighbours.
    """

    confidence: float = 0.2
    reference: float = 0.95  # the prior of a person (domain/spine/confidence.py)
    stale: float = 0.15
    pinned: float = 0.15
    user_weight: float = 0.2
    neutral_weight: float = 0.5  # an unset weight counts as this


SPINE_WEIGHTS = SpineWeights()


def spine_lift(
    c: float | None,
    stale: bool,
    pinned: bool,
    user_weight: float | None,
    weights: SpineWeights = SPINE_WEIGHTS,
) -> float:
    """What the spine adds to a score (see :class:`SpineWeights`); 0.0 for the defaults."""
    lift = 0.0
    if c is not None and c != weights.reference:
        lift += weights.confidence * (c - weights.reference)
    if stale:
        lift -= weights.stale
    if pinned:
        lift += weights.pinned
    if user_weight is not None and user_weight != weights.neutral_weight:
        lift += weights.user_weight * (user_weight - weights.neutral_weight)
    return lift


def spine_parts(fact: Fact, now: datetime) -> dict[str, Any]:
    """The spine's parts of a candidate's score at ``now`` (``ScoreParts`` fields), with
    ``spine``, what they add to its total."""
    c, c_eff, stale = fact.confidence, None, False
    if c is not None:
        since = fact.last_confirmed_at or fact.created_at
        status = fact.attributes.get("status")
        permanent = fact.lifetime == "permanent"
        c_eff, stale = staleness(c, fact.kind, since, now, status=status, permanent=permanent)
    return {
        "c": c,
        "c_eff": c_eff,
        "stale": stale,
        "pinned": fact.pinned,
        "user_weight": fact.user_weight,
        "spine": spine_lift(c, stale, fact.pinned, fact.user_weight),
    }


RERANK_TOP = 30
"""How many of the best fused candidates the cross-encoder rescores (decision 0115)."""


def rerank_places(totals: Sequence[float], scores: Sequence[float]) -> list[tuple[int, float]]:
    """The reranked order of candidates best first by ``totals``: ``(index, total)`` a
    place, the index the candidate with the ``place``-th best reranker score (ties to the
    better fused place), the total the one that place had, so the totals still fall
    down the list and every reranked hit stays above those that were not reranked."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return [(index, totals[place]) for place, index in enumerate(order)]


def candidate_count(limit: int) -> int:
    """How many hits one index returns before the mix reorders them."""
    return max(limit * 4, 50)


def rescale_bm25(ranks: Sequence[float]) -> list[float]:
    """Map FTS5 bm25 values (negative, best smallest) onto 1.0 (best) .. 0.0 (worst).

    With no spread (one hit, or all tied) every hit scores 1.0.
    """
    return rescale_similarity([-r for r in ranks])


def bm25_share(ranks: Sequence[float]) -> list[float]:
    """Map FTS5 bm25 values (negative, best smallest) onto their share of the best's: 1.0
    for the best, above 0.0 for every other match; 0.0 is what a fact that does not match
    scores (decision 0172). With no match scoring below 0, every hit scores 1.0."""
    if not ranks:
        return []
    best = min(ranks)
    if best >= 0.0:
        return [1.0 for _ in ranks]
    return [max(0.0, rank / best) for rank in ranks]


def keyword_scores(ranks: Sequence[float], settings: FusionSettings) -> list[float]:
    """The keyword list's contribution to hybrid fusion before weighting: each bm25 as a
    share of the best's (``keyword_scale="share"``), or rescaled over the candidates."""
    if settings.keyword_scale == "minmax":
        return rescale_bm25(ranks)
    return bm25_share(ranks)


def rescale_similarity(sims: Sequence[float]) -> list[float]:
    """Map similarities (higher is better) onto 1.0 (best) .. 0.0 (worst) of the list.

    With no spread (one hit, or all tied) every hit scores 1.0.
    """
    if not sims:
        return []
    best, worst = max(sims), min(sims)
    spread = best - worst
    if spread <= 1e-12:
        return [1.0 for _ in sims]
    return [(s - worst) / spread for s in sims]


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


# -- fusion of keyword and vector lists ----------------------------------------------------

VECTOR_FLOOR = 0.15
VECTOR_SHARE = 0.5
RRF_K = 60
# What a candidate takes of the best matching fact 1 and 2 places away on its path.
NEIGHBOUR_WEIGHTS = (0.4, 0.3)
TEMPORAL_WEIGHT = 0.6
FEEDBACK_WEIGHT = 0.25
# Chosen on the fit half (flat from 0.3 to 0.75, lower at 1.0); the check half agreed.
ENTITY_WEIGHT = 0.5


@record
class FusionSettings:
    """How hybrid recall mixes its lists; ``benchmarks/retrieval`` picked the defaults.

    The linear mix beat reciprocal-rank fusion on LoCoMo (dev, all-MiniLM-L6-v2;
    Recall@5 0.578 vs 0.532); the share-of-best cut only removed useful vector hits, so
    it is off by default (``vector_share=0``) and the floor of 0.15 stays
    (docs/decisions/0008-hybrid-fusion.md). The cosines are rescaled over the
    candidates like bm25 (docs/decisions/0013-vector-scores-rescaled.md) and weigh as much
    as the keyword list: chosen on the fit half of the dev files and checked on the other
    (docs/decisions/0105-fusion-chosen-on-the-fit-half.md). The keyword list enters as each
    bm25's share of the best's, 0 only for a fact it does not hold (decision 0172).
    """

    method: str = "linear"  # "linear" (decision 0008) or "rrf" (reciprocal-rank fusion)
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    # "minmax": cosines rescaled over the candidates; "cosine": as they are.
    vector_scale: str = "minmax"
    # "share": each bm25 as a share of the best's, so the last match keeps what it matched
    # (docs/decisions/0172-the-keyword-list-keeps-its-zero.md); "minmax": rescaled over the
    # candidates, the last match 0, as keyword recall alone ranks.
    keyword_scale: str = "share"
    rrf_k: int = RRF_K
    vector_floor: float = VECTOR_FLOOR
    vector_share: float = 0.0
    neighbour_weights: tuple[float, ...] = NEIGHBOUR_WEIGHTS
    # A fact whose time lies in a time the query names gains this much (less near it;
    # docs/decisions/0106-time-named-in-the-query.md); 0 turns it off.
    temporal_weight: float = TEMPORAL_WEIGHT
    # Each candidate loses this much for every better candidate on its path (0: off;
    # docs/decisions/0107-multi-hop-without-a-model.md).
    path_diversity: float = 0.0
    # What the facts found by the best hits' shared words weigh beside the query's own
    # keyword list (pseudo-relevance feedback, domain/recall/feedback.py; 0: off, the default;
    # FEEDBACK_WEIGHT is the weight chosen on the fit half; decision 0107).
    feedback_weight: float = 0.0
    # How many of the best fused candidates a recall with ``rerank`` gives the
    # cross-encoder (decision 0115); those below keep their place under them.
    rerank_top: int = RERANK_TOP
    # A fact gains this much × the share of the query's names it holds (names: capitalised
    # words that open no sentence; domain/recall/query_entities.py, decision 0113; 0 turns it off).
    entity_weight: float = ENTITY_WEIGHT
    # A candidate gains this much × the best relevance of the other candidates on its path
    # (its session, its note), however far along the path they are (0: off; decision 0113).
    path_weight: float = 0.0


def cut_vector(
    hits: Sequence[tuple[str, float]], floor: float, share: float
) -> list[tuple[str, float]]:
    """Drop vector hits that are too far: below ``floor``, or below ``share`` of the best."""
    if not hits:
        return []
    best = max(sim for _, sim in hits)
    cut = max(floor, best * share)
    return [(key, sim) for key, sim in hits if sim >= cut]


def fuse_linear(
    keyword: Mapping[str, float], vector: Mapping[str, float], settings: FusionSettings
) -> dict[str, float]:
    """The linear mix (decision 0008): weighted rescaled keyword + weighted cosine (strength
    is added later).

    With ``vector_scale="minmax"`` the cosines are first rescaled over the candidates
    (:func:`rescale_similarity`), as the keyword list is.
    """
    return mix_linear(keyword, vector_scores(vector, settings), settings)


def mix_linear(
    keyword: Mapping[str, float], scaled: Mapping[str, float], settings: FusionSettings
) -> dict[str, float]:
    """The weighted sum of the keyword scores and the vector list's :func:`vector_scores`."""
    out: dict[str, float] = {}
    for key in keyword.keys() | scaled.keys():
        out[key] = settings.keyword_weight * keyword.get(key, 0.0) + settings.vector_weight * (
            scaled.get(key, 0.0)
        )
    return out


def vector_scores(vector: Mapping[str, float], settings: FusionSettings) -> dict[str, float]:
    """The vector list's contribution before weighting: cosines, or their rescaling."""
    if settings.vector_scale == "cosine":
        return dict(vector)
    keys = list(vector)
    return dict(zip(keys, rescale_similarity([vector[k] for k in keys]), strict=True))


def fuse_rrf(
    keyword_order: Sequence[str], vector_order: Sequence[str], settings: FusionSettings
) -> dict[str, float]:
    """Reciprocal-rank fusion: sum of weight / (k + rank) over the lists holding the item.

    Scores are scaled so that first place in every list gives 1.0.
    """
    k = settings.rrf_k
    top = (settings.keyword_weight + settings.vector_weight) / (k + 1)
    out: dict[str, float] = {}
    for weight, order in (
        (settings.keyword_weight, keyword_order),
        (settings.vector_weight, vector_order),
    ):
        for rank, key in enumerate(order, start=1):
            out[key] = out.get(key, 0.0) + weight / (k + rank)
    return {key: score / top for key, score in out.items()}


def neighbour_boost(
    relevance: Mapping[str, float],
    neighbours: Mapping[str, Sequence[Sequence[str]]],
    weights: Sequence[float],
) -> dict[str, float]:
    """What each candidate gains from its neighbours on its path.

    ``neighbours[key][d - 1]`` holds the facts ``d`` places before and after ``key``.
    The gain is the sum over distances of ``weights[d - 1]`` × the best relevance among
    that distance's neighbours that are candidates too. ``relevance`` is the score
    before strength, so only what matched the query spreads, and gains are computed from
    the scores before any gain (they do not chain).
    """
    out: dict[str, float] = {}
    for key in relevance:
        gain = 0.0
        for weight, near in zip(weights, neighbours.get(key, ()), strict=False):
            best = max((relevance.get(n, 0.0) for n in near), default=0.0)
            if best > 0.0:
                gain += weight * best
        out[key] = gain
    return out


def on_shared_paths(paths: Mapping[str, str], relevance: Mapping[str, float]) -> list[str]:
    """The candidates that can gain at all: those whose path holds another candidate
    that matched (a fact alone among the candidates on its path has no neighbour to
    gain from, so its neighbours need not be looked up)."""
    matched = Counter(path for key, path in paths.items() if relevance.get(key, 0.0) > 0.0)
    return [
        key
        for key, path in paths.items()
        if matched[path] - (1 if relevance.get(key, 0.0) > 0.0 else 0) > 0
    ]


def within_reach(
    keys: Sequence[str],
    relevance: Mapping[str, float],
    extra: Mapping[str, float],
    paths: Mapping[str, str],
    n: int,
    most_gain: float,
) -> list[str]:
    """Those of ``keys`` that could still reach the top ``n`` with a neighbour's gain.

    A gain only raises totals, so ``n`` candidates already score at least the n-th best
    total before any gain (``relevance + extra``); a candidate whose total plus the most
    it could gain (``most_gain`` × the best relevance on its path) stays below that bar
    is never shown, and its neighbours need not be looked up.
    """
    if len(relevance) <= n:
        return list(keys)
    totals = sorted((relevance[k] + extra.get(k, 0.0) for k in relevance), reverse=True)
    bar = totals[n - 1]
    best_on: dict[str, float] = {}
    for key, path in paths.items():
        best_on[path] = max(best_on.get(path, 0.0), relevance.get(key, 0.0))
    return [
        k
        for k in keys
        if relevance[k] + extra.get(k, 0.0) + most_gain * best_on.get(paths[k], 0.0) >= bar
    ]


def temporal_lifts(
    times: Mapping[str, datetime], windows: tuple[TimeWindow, ...], weight: float
) -> dict[str, float]:
    """What each candidate's time adds: ``weight`` × its closeness to the windows the
    query names (1 inside, falling to 0 one window's width away); empty with no window."""
    if not windows or weight <= 0.0:
        return {}
    return {key: weight * closeness(at, windows) for key, at in times.items()}


def entity_lifts(
    terms: Mapping[str, Sequence[str]], entities: Sequence[str], weight: float
) -> dict[str, float]:
    """What the names the query mentions add to each candidate: ``weight`` × the share of
    them its index ``terms`` hold (:func:`~embornal.domain.recall.query_entities.entity_share`);
    empty when the query names none or the weight is 0."""
    if not entities or weight <= 0.0:
        return {}
    return {key: weight * entity_share(entities, held) for key, held in terms.items()}


def path_lifts(
    relevance: Mapping[str, float], paths: Mapping[str, str], weight: float
) -> dict[str, float]:
    """What each candidate gains from the best *other* candidate on its path: ``weight`` ×
    that one's relevance (before strength and any gain); empty when off."""
    if weight <= 0.0:
        return {}
    best: dict[str, list[float]] = {}
    for key, score in relevance.items():
        top = best.setdefault(paths[key], [0.0, 0.0])  # the best two on the path
        if score > top[0]:
            top[0], top[1] = score, top[0]
        elif score > top[1]:
            top[1] = score
    out: dict[str, float] = {}
    for key, score in relevance.items():
        first, second = best[paths[key]]
        other = second if score >= first else first
        out[key] = weight * max(other, 0.0)
    return out


def diversity_penalties(
    order: Sequence[str], paths: Mapping[str, str], penalty: float
) -> dict[str, float]:
    """What each candidate loses for the better candidates on its path: ``penalty`` × how
    many come before it there (``order`` is best first). The same as picking greedily the
    best total minus ``penalty`` × the picks already on its path. Empty when off."""
    if penalty <= 0.0:
        return {}
    seen: Counter[str] = Counter()
    out: dict[str, float] = {}
    for key in order:
        out[key] = penalty * seen[paths[key]]
        seen[paths[key]] += 1
    return out
