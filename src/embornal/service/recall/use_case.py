"""The recall use case: the best hits the subject may read, recorded as recalled.

``recall`` ranks with a :class:`~embornal.service.recall.recaller.Recaller` over the
store, or over the reads of a past time (``as_of``), and counts what it returns as
recalled (their strength rises) unless asked not to or looking back.

The guide under ``/memory`` (decision 0154) is taken out of the hits, not out of the
scope: a narrower scope would hide the raw bm25 and widen the keyword window of a subject
that reads everything, changing its ranking. The recall asks for as many more hits as the
guide has facts in the subject's scope, then leaves those out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from embornal.domain import paths as P
from embornal.domain.access.scope import ReadScope
from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.events import FactsRecalled
from embornal.domain.facts.fact import Fact
from embornal.domain.guide import GUIDE_PATH, is_guide_path
from embornal.domain.ids import new_id
from embornal.domain.recall.relative_time import check_asked
from embornal.errors import InvalidInput
from embornal.hints import TYPE_CHECKING
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.timetravel import AsOf, looking_back
from embornal.service.recall.recaller import Recaller
from embornal.service.results import RecallHit

if TYPE_CHECKING:
    from embornal.storage.contract.store import PastReads, Store

__all__ = ["recall", "record_recall", "similar", "without_guide_hits"]


def recall(
    ctx: ServiceContext,
    query: str | None,
    *,
    limit: int | None,
    under: str | None,
    reinforce: bool,
    mode: str,
    as_of: AsOf = None,
    now: datetime | str | None = None,
    rerank: bool = False,
    guide: bool = False,
) -> list[RecallHit]:
    """The best ``limit`` hits the subject may read; each counts as a recall if ``reinforce``
    (never when looking back to ``as_of``: the hits then, ranked by their strength then).
    ``now``: when the question is asked (the times it names); ``guide``: with ``/memory``."""
    n = check_limit(limit, ctx.default_limit)
    if query is not None and not isinstance(query, str):
        raise InvalidInput(f"the query must be text, not {type(query).__name__}")
    asked = check_asked(now)
    prefix = P.normalize_path(under) if under is not None else None
    reads, at = looking_back(ctx, as_of)
    recaller = Recaller(reads, ctx.semantic, ctx.fusion, ctx.reranking.when(rerank))
    vis = ctx.scope()
    hits = without_guide_hits(
        lambda k: recaller.recall(query, k, vis, at, under=prefix, mode=mode, asked=asked),
        reads,
        n,
        vis,
        guide=guide or prefix not in (None, P.ROOT),
    )
    if reinforce and as_of is None:
        record_recall(ctx, [h.fact for h in hits])
    return hits


def similar(
    ctx: ServiceContext,
    fact_id: str,
    *,
    limit: int | None = None,
    under: str | None = None,
    mode: str = "auto",
) -> list[RecallHit]:
    """The live facts most like ``fact_id``'s content, best first, the fact itself left out:
    a recall of its text (``under``, ``mode``: as recall's) that reinforces nothing."""
    fact = ctx.resolve(fact_id)
    n = check_limit(limit, ctx.default_limit)
    hits = recall(
        ctx, fact.content, limit=min(n + 1, MAX_LIMIT), under=under, reinforce=False, mode=mode
    )
    return [h for h in hits if h.fact.id != fact.id][:n]


def record_recall(ctx: ServiceContext, facts: Sequence[Fact]) -> None:
    """Record that ``facts`` were recalled (one event): their strength rises."""
    if not facts:
        return
    now = ctx.now()
    body = FactsRecalled(fact_ids=tuple(f.id for f in facts), at=now)
    ctx.append("recording a recall", [ctx.event(f"recall:{new_id(now)}", body)])


def without_guide_hits(
    recall: Callable[[int], list[RecallHit]],
    reads: Store | PastReads,
    n: int,
    vis: ReadScope,
    *,
    guide: bool = False,
) -> list[RecallHit]:
    """The best ``n`` hits ``recall(k)`` gives (its best ``k``) that are not guide facts;
    ``guide``: the best ``n``, guide facts or not."""
    if guide:
        return recall(n)
    extra = sum(r.fact_count for r in reads.subtree(GUIDE_PATH, vis))
    return [h for h in recall(n + extra) if not is_guide_path(h.fact.path)][:n]
