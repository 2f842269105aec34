"""The ranking of recall: keyword, vector and hybrid, over what the subject may see.

keyword  rescaled bm25 + 0.5·strength (docs/model.md, Recall)
vector   cosine similarity (after the floor/share cuts) + 0.5·strength; a long
         fact's is the mean of its opening piece's and best piece's
hybrid   the two lists fused (linear: bm25 as a share of the best's + rescaled cosine,
         decision 0172; or reciprocal-rank), + strength; its two parts side by side
         (decision 0125)
no query the strongest facts (:func:`strongest`)

Every method then adds the spine (``ScoreParts.spine``, ``ranking.SpineWeights``) and
what a time the query names gives a fact of that time (``ScoreParts.temporal``, decision
0106); the keyword list can mix in pseudo-relevance feedback (:func:`with_feedback`, off
by default; 0107). The neighbours' gains and the final order are in
:mod:`~embornal.service.recall.order`.

FTS5's bm25 statistics (fact count, mean length, how many facts hold each term) span
every fact, hidden ones too, so the raw value (``ScoreParts.bm25``) is given only to a
caller that reads the whole memory; the others get the scaled ``keyword`` alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from embornal.domain.access.scope import ReadScope
from embornal.domain.clock import format_time
from embornal.domain.facts.fact import Fact
from embornal.domain.recall.feedback import FEEDBACK_FACTS, feedback_terms, mix_feedback
from embornal.domain.recall.query_entities import query_entities
from embornal.domain.recall.ranking import (
    DF_CEILING_MIN_DOCS,
    STRENGTH_WEIGHT,
    FusionSettings,
    ScoreParts,
    candidate_count,
    cut_vector,
    fuse_rrf,
    keyword_scores,
    mix_linear,
    rescale_bm25,
    select_terms,
    spine_parts,
    vector_scores,
)
from embornal.domain.recall.relative_time import TimeWindow, describe, time_windows
from embornal.domain.recall.text import query_terms, topic_terms
from embornal.domain.records import record
from embornal.domain.spine.strength import strength
from embornal.errors import EmbornalError, InvalidInput
from embornal.hints import TYPE_CHECKING, Any
from embornal.service.recall.legs import side_by_side
from embornal.service.recall.order import context_gains, event_times, lifts, ranked
from embornal.service.rerank import Reranking
from embornal.service.results import RecallHit
from embornal.service.semantic import Semantic
from embornal.storage.contract.rows import pack_vector

if TYPE_CHECKING:
    from embornal.storage.contract.store import PastReads, Store

__all__ = ["MODES", "Recaller", "strongest", "with_feedback"]

MODES = ("auto", "keyword", "vector", "hybrid")


@record
class _Gains:
    """What each candidate of one recall gains besides its relevance, by its id: its
    strength and spine, its neighbours' and its path's gains, the time and the names the
    query names; ``said``, the parts every hit shows. ``scale`` weighs the strength, the
    spine, the time and the names against the relevance (1.0 but for reciprocal-rank
    fusion, whose scores are small). ``bases``: each hit's total before the spine, as
    :meth:`hit` makes it (ties in the final order go to the better one)."""

    strengths: dict[str, float]
    spines: dict[str, dict[str, Any]]
    boost: dict[str, float]
    along: dict[str, float]
    times: dict[str, float]
    named: dict[str, float]
    said: dict[str, Any]
    scale: float
    bases: dict[str, float]

    def hit(self, fact: Fact, relevance: float, **parts: Any) -> RecallHit:
        """``fact``'s hit: ``relevance`` and its gains (``parts``: the method's own parts
        of the score)."""
        key, scale = fact.id, self.scale
        s, sp = self.strengths[key], self.spines[key]
        near, t, e = self.boost.get(key), self.times.get(key), self.named.get(key)
        t = None if t is None else t * scale
        e = None if e is None else e * scale
        on_path = self.along.get(key)
        lifted = (t or 0.0) + (e or 0.0) + (on_path or 0.0)
        base = self.bases[key] = relevance + (near or 0.0) + STRENGTH_WEIGHT * s * scale + lifted
        total = base + sp["spine"] * scale
        score = ScoreParts(
            total=total,
            strength=s,
            neighbour=near,
            path=on_path,
            temporal=t,
            entity=e,
            **parts,
            **self.said,
            **sp,
        )
        return RecallHit(fact, total, s, score)


class Recaller:
    def __init__(
        self,
        store: Store | PastReads,
        semantic: Semantic,
        fusion: FusionSettings,
        reranking: Reranking | None = None,
    ) -> None:
        self._store = store
        self._semantic = semantic
        self.fusion = fusion
        self._windows: tuple[TimeWindow, ...] = ()
        self._reranking = reranking  # the cross-encoder after fusion (decision 0115)
        self._entities: tuple[str, ...] = ()

    def resolve_mode(self, mode: str) -> str:
        if mode not in MODES:
            raise InvalidInput(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "auto":
            return "hybrid" if self._semantic.usable() else "keyword"
        return mode

    def recall(
        self,
        query: str | None,
        n: int,
        vis: ReadScope,
        now: datetime,
        *,
        under: str | None,
        mode: str,
        asked: datetime | None = None,
    ) -> list[RecallHit]:
        """``asked``: when the question is asked (default ``now``), for the times it names."""
        chosen = self.resolve_mode(mode)
        if not query or not query.strip():
            return strongest(self._store, n, vis, now, under)
        self._query = query
        on = self.fusion.temporal_weight > 0.0
        self._windows = time_windows(query, asked or now) if on else ()
        self._entities = query_entities(query) if self.fusion.entity_weight > 0.0 else ()
        if chosen == "keyword":
            return self._keyword(query, n, vis, now, under)
        if chosen == "vector":
            return self._vector(query, n, vis, now, under)
        if mode == "auto":
            try:
                return self._hybrid(query, n, vis, now, under)
            except EmbornalError:
                return self._keyword(query, n, vis, now, under)
        return self._hybrid(query, n, vis, now, under)

    def _gains(
        self,
        ranked: dict[str, Fact],
        facts: dict[str, Fact],
        relevance: dict[str, float],
        n: int,
        vis: ReadScope,
        now: datetime,
        scale: float = 1.0,
    ) -> _Gains:
        """What the candidates ``ranked`` (of ``facts``, by ``relevance``) gain besides
        their relevance, ``scale`` times their strength, spine, time and names."""
        strengths = {key: strength(f.signals, now) for key, f in ranked.items()}
        spines = {key: spine_parts(f, now) for key, f in ranked.items()}
        events = event_times(self._store, ranked, self._windows, self.fusion, vis)
        raised, times, names = lifts(
            ranked, spines, spines, self._windows, self.fusion, self._entities, events
        )
        boost, along = context_gains(
            self._store, self.fusion, relevance, facts, strengths, n, vis, scale, raised
        )
        said = {"time_window": describe(self._windows), "entities": self._entities}
        return _Gains(strengths, spines, boost, along, times, names, said, scale, {})

    def _finish(
        self, hits: list[RecallHit], n: int, wanted: set[str] | None, bases: dict[str, float]
    ) -> list[RecallHit]:
        return ranked(self._reranking, self._query, hits, n, wanted, bases, self.fusion)

    def _keyword_candidates(
        self,
        query: str,
        n: int,
        vis: ReadScope,
        under: str | None,
        scale: Callable[[Sequence[float]], list[float]] = rescale_bm25,
    ) -> tuple[list[tuple[Fact, float]], list[float], set[str]]:
        terms = topic_terms(query)  # without the words asking for an order in time (0161)
        if not terms:
            return [], [], set()
        selected = select_terms(terms, self._store.term_df(terms), self._store.doc_count())
        found = self._store.keyword_search(selected, candidate_count(n), vis, under=under)
        scaled = scale([rank for _, rank in found])
        weight = self.fusion.feedback_weight
        found, scaled = with_feedback(
            self._store, found, scaled, selected, n, vis, under, weight, scale=scale
        )
        return found, scaled, set(selected)

    @staticmethod
    def _raw_bm25(vis: ReadScope, rank: float | None) -> float | None:
        """The raw bm25 for a caller that reads everything; None for any other (its
        statistics count the facts the caller cannot read)."""
        return rank if vis.everything else None

    def _keyword(
        self, query: str, n: int, vis: ReadScope, now: datetime, under: str | None
    ) -> list[RecallHit]:
        found, scaled, wanted = self._keyword_candidates(query, n, vis, under)
        facts = {f.id: f for f, _ in found}
        relevance = {f.id: kw for (f, _), kw in zip(found, scaled, strict=True)}
        gains = self._gains(facts, facts, relevance, n, vis, now)
        hits = []
        for rank, ((fact, bm25), kw) in enumerate(zip(found, scaled, strict=True), start=1):
            hit = gains.hit(
                fact,
                kw,
                keyword=kw,
                bm25=self._raw_bm25(vis, bm25),
                keyword_rank=rank,
                method="keyword+strength",
            )
            hits.append(hit)
        return self._finish(hits, n, wanted, gains.bases)

    def _vector_candidates(
        self, query: str, n: int, vis: ReadScope, under: str | None
    ) -> list[tuple[Fact, float]]:
        provider = self._semantic.require_usable()
        qblob = pack_vector(provider.embed_query(query))
        found = self._store.vector_search(qblob, candidate_count(n), vis, under=under)
        kept = {
            key
            for key, _ in cut_vector(
                [(f.id, sim) for f, sim in found],
                self.fusion.vector_floor,
                self.fusion.vector_share,
            )
        }
        return [(f, sim) for f, sim in found if f.id in kept]

    def _vector(
        self, query: str, n: int, vis: ReadScope, now: datetime, under: str | None
    ) -> list[RecallHit]:
        found = self._vector_candidates(query, n, vis, under)
        facts = {f.id: f for f, _ in found}
        gains = self._gains(facts, facts, {f.id: sim for f, sim in found}, n, vis, now)
        hits = []
        for rank, (fact, sim) in enumerate(found, 1):
            hits.append(
                gains.hit(fact, sim, vector=sim, vector_rank=rank, method="vector+strength")
            )
        return self._finish(hits, n, None, gains.bases)

    def _hybrid(
        self, query: str, n: int, vis: ReadScope, now: datetime, under: str | None
    ) -> list[RecallHit]:
        settings = self.fusion
        (found, scaled, wanted), vec = side_by_side(  # decision 0125
            lambda: self._keyword_candidates(
                query, n, vis, under, lambda ranks: keyword_scores(ranks, settings)
            ),
            lambda: self._vector_candidates(query, n, vis, under),
            parallel=self._store.reads_aside(),
        )
        facts: dict[str, Fact] = {f.id: f for f, _ in found}
        facts.update({f.id: f for f, _ in vec})
        kw_score = {f.id: s for (f, _), s in zip(found, scaled, strict=True)}
        bm25 = {f.id: r for f, r in found}
        kw_order = [f.id for f, _ in found]
        vec_score = {f.id: sim for f, sim in vec}
        vec_order = [f.id for f, _ in vec]
        vec_scaled: dict[str, float] = {}
        if settings.method == "linear":
            vec_scaled = vector_scores(vec_score, settings)
            fused = mix_linear(kw_score, vec_scaled, settings)
            strength_scale = 1.0
        else:
            fused = fuse_rrf(kw_order, vec_order, settings)
            strength_scale = 1.0 / (settings.keyword_weight + settings.vector_weight)
        kw_rank = {key: i for i, key in enumerate(kw_order, 1)}
        vec_rank = {key: i for i, key in enumerate(vec_order, 1)}
        fused_facts = {k: facts[k] for k in fused}
        gains = self._gains(fused_facts, facts, fused, n, vis, now, strength_scale)
        hits = []
        for key, score in fused.items():
            hit = gains.hit(
                facts[key],
                score,
                keyword=kw_score.get(key),
                bm25=self._raw_bm25(vis, bm25.get(key)),
                vector=vec_score.get(key),
                vector_scaled=vec_scaled.get(key),
                keyword_rank=kw_rank.get(key),
                vector_rank=vec_rank.get(key),
                method=f"hybrid-{settings.method}+strength",
            )
            hits.append(hit)
        return self._finish(hits, n, wanted, gains.bases)


def strongest(
    store: Store | PastReads, n: int, vis: ReadScope, now: datetime, under: str | None
) -> list[RecallHit]:
    """The ``n`` strongest (strength + spine) of the store's strongest candidates."""
    hits = []
    for f in store.strongest(candidate_count(n), format_time(now), vis, under=under):
        s = strength(f.signals, now)
        sp = spine_parts(f, now)
        total = s + sp["spine"]
        hits.append(RecallHit(f, total, s, ScoreParts(total=total, strength=s, **sp)))
    hits.sort(key=lambda h: h.score, reverse=True)  # stable: ties keep the store's order
    return hits[:n]


def with_feedback(
    store: Store | PastReads,
    found: list[tuple[Fact, float]],
    scaled: list[float],
    selected: list[str],
    n: int,
    vis: ReadScope,
    under: str | None,
    weight: float,
    *,
    scale: Callable[[Sequence[float]], list[float]] = rescale_bm25,
) -> tuple[list[tuple[Fact, float]], list[float]]:
    """``found`` (facts and raw bm25) and its scores (``scale`` of the bm25 values), with
    the facts the feedback terms find mixed in, best first. Only facts ``vis`` reads give
    terms or are found. Off in a memory of fewer than ``DF_CEILING_MIN_DOCS`` facts, as the
    df ceiling is."""
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
    second = dict(zip((f.id for f, _ in more), scale([r for _, r in more]), strict=True))
    first = dict(zip((f.id for f, _ in found), scaled, strict=True))
    mixed = mix_feedback(first, second, weight)
    pairs = {f.id: (f, r) for f, r in more} | {f.id: (f, r) for f, r in found}
    order = sorted(mixed, key=lambda k: (-mixed[k], k))
    return [pairs[k] for k in order], [mixed[k] for k in order]
