"""The history context and the chronology read from it (docs/model.md, Frames and history
context; decisions 0088, 0089): ``set_history_context`` (audited, in the fact's stream),
``timeline`` and ``search_history`` with its bounded evidence; the rules are
:mod:`embornal.domain.history.context`'s.

Both reads are read-only: no recall is recorded, nothing is reinforced. Each reads only
what the subject may read (the store's read scope), so a memory it may not read is
neither a hit, nor evidence, nor a neighbour on the timeline.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.bounds import check_query_length
from embornal.domain.clock import format_time, parse_time
from embornal.domain.facts.fact import check_reason
from embornal.domain.history.context import (
    MAX_EVIDENCE,
    check_context,
    check_expand,
    check_order,
    check_via,
    check_window,
    decide_set_context,
    select_evidence,
)
from embornal.domain.recall.text import query_terms
from embornal.errors import InvalidInput
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.lifecycle import on_fact
from embornal.service.history import protocol
from embornal.service.history.results import MemoryStatus
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry
from embornal.storage.contract.store import TimelineRow

__all__ = ["search_history", "set_history_context", "timeline"]


def _entry(row: TimelineRow) -> TimelineEntry:
    at = None if row.event_at is None else parse_time(row.event_at)
    return TimelineEntry(row.fact, at, row.session, row.session_position)


def _text(moment: datetime | None) -> str | None:
    return None if moment is None else format_time(moment)


def set_history_context(
    ctx: ServiceContext,
    fact_id: str,
    *,
    event_at: datetime | str | None = None,
    session: str | None = None,
    session_position: int | None = None,
    reason: str,
) -> MemoryStatus:
    """Replace the whole history context of a memory (what is not given becomes
    unknown), recorded with the reason and the context it had; a context it has already
    records nothing."""
    why = check_reason(reason)
    context = check_context(event_at, session, session_position)
    fact = ctx.target("chronicle.set_history_context", fact_id)
    on_fact(
        ctx,
        fact.id,
        lambda s: decide_set_context(s, context),
        why,
        "setting a history context",
    )
    return protocol.status(ctx, fact.id)


def timeline(
    ctx: ServiceContext,
    *,
    session: str | None = None,
    start: datetime | str | None = None,
    end: datetime | str | None = None,
    limit: int | None = None,
    order: str = "asc",
    include_forgotten: bool = False,
) -> list[TimelineEntry]:
    """The memories the subject may read, by event time, then session position, then
    record order (``order`` desc: the latest first); unknown event times last, and none
    when a window is given (``start``/``end``, inclusive). Forgotten ones only when
    asked for."""
    n = check_limit(limit, ctx.default_limit)
    lo, hi = check_window(start, end)
    descending = check_order(order)
    label = check_context(None, session, None).session
    rows = ctx.store.timeline.timeline_rows(
        ctx.scope(),
        session=label,
        start=_text(lo),
        end=_text(hi),
        limit=n,
        descending=descending,
        include_forgotten=bool(include_forgotten),
    )
    return [_entry(r) for r in rows]


def search_history(
    ctx: ServiceContext,
    query: str,
    *,
    start: datetime | str | None = None,
    end: datetime | str | None = None,
    session: str | None = None,
    limit: int | None = None,
    expand: int = 0,
    via: str = "both",
) -> list[HistoryHit]:
    """Keyword search of the live memories within the window and session, best first
    (read-only: nothing is reinforced); with ``expand=N``, up to N linked memories and N
    session neighbours (within N places) per hit, at most
    :data:`~embornal.domain.history.context.MAX_EVIDENCE` in all, each memory once."""
    n = check_limit(limit, ctx.default_limit)
    k = check_expand(expand)
    way = check_via(via)
    lo, hi = check_window(start, end)
    label = check_context(None, session, None).session
    check_query_length(query)
    terms = query_terms(query) if isinstance(query, str) else []
    if not terms:
        raise InvalidInput(
            "search_history needs a query with words to match",
            hint="Give the words to look for, e.g. search_history(query='deadline'); "
            "timeline() lists memories without a query.",
        )
    scope = ctx.scope()
    rows = ctx.store.timeline.history_search_rows(
        terms, scope, session=label, start=_text(lo), end=_text(hi), limit=n
    )
    hits = [r.fact.id for r in rows]
    if not k:
        return [HistoryHit(_entry(r), round(-(r.rank or 0.0), 6)) for r in rows]
    known: dict[str, TimelineRow] = {r.fact.id: r for r in rows}
    near: dict[str, list[tuple[str, int]]] = {}
    linked: dict[str, list[tuple[str, str, str]]] = {}
    if way in ("both", "session"):
        for r in rows:
            if r.session is None or r.session_position is None:
                continue
            p = r.session_position
            around = ctx.store.timeline.session_rows(
                scope, r.session, p - k, p + k, limit=4 * k + 1
            )
            ranked = sorted(
                (o for o in around if o.fact.id != r.fact.id and o.session_position is not None),
                key=lambda o: (abs((o.session_position or 0) - p), o.session_position),
            )
            near[r.fact.id] = [(o.fact.id, (o.session_position or 0) - p) for o in ranked]
            known.update((o.fact.id, o) for o in ranked)
    if way in ("both", "links"):
        for s, rel, t in ctx.store.links.link_rows(hits, "both"):
            if s in hits:
                linked.setdefault(s, []).append((t, rel, "out"))
            if t in hits:
                linked.setdefault(t, []).append((s, rel, "in"))
        ends = {o for pairs in linked.values() for o, _, _ in pairs} - set(known)
        readable = {
            r.fact.id: r
            for r in ctx.store.timeline.context_rows(sorted(ends)[: MAX_EVIDENCE * 4], scope)
        }
        known.update(readable)
        linked = {h: [x for x in v if x[0] in known] for h, v in linked.items()}
    picks = select_evidence(hits, near, linked, k, way)
    given: dict[str, list[Evidence]] = {}
    for pick in picks:
        e = Evidence(
            _entry(known[pick.memory_id]),
            pick.seed_id,
            pick.via,
            pick.offset,
            pick.relation,
            pick.direction,
        )
        given.setdefault(pick.seed_id, []).append(e)
    return [
        HistoryHit(_entry(r), round(-(r.rank or 0.0), 6), tuple(given.get(r.fact.id, ())))
        for r in rows
    ]
