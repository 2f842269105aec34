"""Retention and pruning (docs/model.md, Recall; decisions 0056 and 0057).

``retention`` scores every live fact the subject may read from its stored signals (one
read of the facts' signals, one of the links pointing at each path) and returns the
lowest first. ``prune`` never deletes: it opens ONE archive proposal of the facts that
score below the threshold, each item carrying its score's parts as evidence, for a
person (or a configured auto-approve rule) to decide.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import parse_time
from embornal.domain.facts.fact import check_reason
from embornal.domain.proposals.aggregate import MAX_ITEMS
from embornal.domain.proposals.retention import RETENTION, score
from embornal.domain.spine.confidence import prior
from embornal.errors import AccessDenied, InvalidInput
from embornal.service.context import ServiceContext, check_limit
from embornal.service.proposals.drafts import propose
from embornal.service.proposals.results import PruneResult, RetentionScore

__all__ = ["PRUNE_SOURCE", "prune", "retention", "score_all"]

PRUNE_SOURCE = "prune"


def _time(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


def _links_in(links: dict[str, int], path: str, fact_id: str) -> int:
    """The links in of a fact: ``[[/path]]`` links to its path, and typed links to it."""
    return links.get(path, 0) + links.get(fact_id, 0)


def score_all(ctx: ServiceContext) -> list[RetentionScore]:
    """Every live fact in the subject's scope with its score, lowest first (the exempt
    ones, pinned or permanent, last); the guide under ``/memory`` is not scored."""
    now = ctx.now()
    links = ctx.store.proposals.link_in_degree(ctx.scope())
    start = prior(ctx.actor_kind)
    out = []
    for r in ctx.store.proposals.retention_rows(ctx.scope(guide=False)):  # never the guide (0154)
        parts = score(
            kind=r.kind,
            now=now,
            created_at=parse_time(r.created_at),
            last_recall_at=_time(r.last_recall_at),
            recall_count=r.recall_count,
            confidence=r.confidence if r.confidence is not None else start,
            last_confirmed_at=_time(r.last_confirmed_at),
            links_in=_links_in(links, r.path, r.fact_id),
            user_weight=r.user_weight,
            exempt=r.pinned or r.lifetime == "permanent",
        )
        out.append(
            RetentionScore(
                r.fact_id,
                r.path,
                r.kind,
                parts.score,
                r.pinned,
                parts.recency,
                parts.access,
                parts.centrality,
                parts.confidence,
                parts.user_weight,
                _links_in(links, r.path, r.fact_id),
                r.recall_count,
            )
        )
    out.sort(key=lambda s: (s.score is None, s.score or 0.0, s.fact_id))
    return out


def retention(ctx: ServiceContext, *, lowest: int | None = None) -> list[RetentionScore]:
    """The ``lowest`` facts by retention score (default: the default limit)."""
    return score_all(ctx)[: check_limit(lowest, ctx.default_limit)]


def _check_threshold(threshold: float | None) -> float:
    if threshold is None:
        return RETENTION.prune_threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise InvalidInput("the threshold must be a number from 0 to 1")
    if not 0.0 <= float(threshold) <= 1.0:
        raise InvalidInput(f"the threshold must be a number from 0 to 1, not {threshold!r}")
    return float(threshold)


def _deletable(ctx: ServiceContext, fact_ids: list[str]) -> list[str]:
    """The candidates the subject may archive (forget takes delete)."""
    if ctx.access.unconditional("delete"):
        return fact_ids
    out = []
    for fact in ctx.store.get_facts(fact_ids, ctx.scope()):
        try:
            ctx.access.require("delete", ctx.access.fact_object(fact))
        except AccessDenied:
            continue
        out.append(fact.id)
    return out


def prune(
    ctx: ServiceContext,
    *,
    threshold: float | None = None,
    limit: int | None = None,
    reason: str | None = None,
) -> PruneResult:
    """Open one archive proposal of the facts scoring below ``threshold`` (lowest first,
    at most ``limit``), each item with its score's parts; nothing is archived yet."""
    bound = _check_threshold(threshold)
    why = check_reason(reason, required=False)
    most = MAX_ITEMS if limit is None else limit
    if isinstance(most, bool) or not isinstance(most, int) or not 1 <= most <= MAX_ITEMS:
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_ITEMS}, not {limit!r}")
    scored = score_all(ctx)
    below = [s for s in scored if s.score is not None and s.score < bound]
    allowed = set(_deletable(ctx, [s.fact_id for s in below]))
    chosen = [s for s in below if s.fact_id in allowed][:most]
    if not chosen:
        return PruneResult(len(scored), bound, 0, None)
    items = [
        {
            "type": "archive",
            "fact_id": s.fact_id,
            "reason": f"retention {s.score:.3f} below {bound:g}",
            "score": {
                "score": round(s.score or 0.0, 6),
                "recency": round(s.recency, 6),
                "access": round(s.access, 6),
                "centrality": round(s.centrality, 6),
                "c_eff": round(s.confidence, 6),
                "user_weight": round(s.user_weight, 6),
            },
        }
        for s in chosen
    ]
    title = f"prune: archive {len(items)} facts with retention below {bound:g}"
    made = propose(ctx, items, title=title, source=PRUNE_SOURCE, reason=why)
    return PruneResult(len(scored), bound, len(items), made)
