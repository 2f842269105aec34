"""Reading without recalling: the path tree, a path's facts, one fact, the history.

Every read goes through the subject's read scope; only ``cat(recall=True)`` counts as a
recall (and lifts the strength of what it shows). ``as_of`` answers as the memory was then
(:mod:`~embornal.service.facts.timetravel`).
"""

from __future__ import annotations

from embornal.domain import paths as P
from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.clock import format_time
from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.links import extract_links
from embornal.domain.guide import asks_for_guide
from embornal.domain.spine.strength import strength
from embornal.errors import EmbornalError, InvalidInput, NotFound
from embornal.hints import TYPE_CHECKING
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.timetravel import AsOf, looking_back, show_at
from embornal.service.facts.view import FactView
from embornal.service.recall import record_recall
from embornal.storage.contract.rows import PathRow

if TYPE_CHECKING:
    from embornal.domain.spine.justification import Provenance
    from embornal.domain.spine.series import SpineSeries
    from embornal.service.facts.details import FactDetail, PathEntry, TreeNode

__all__ = ["cat", "history", "ls", "show", "spine_series", "tree"]

_TREE_HINT = "See `embornal memory tree /`."


def _subtree(ctx: ServiceContext, path: str, as_of: AsOf, guide: bool) -> tuple[str, list[PathRow]]:
    """The rows of the tree at and below ``path``; the guide under ``/memory`` only with
    ``guide`` or when ``path`` is in it (decision 0154)."""
    norm = P.normalize_path(path)
    reads, _ = looking_back(ctx, as_of)
    rows = reads.subtree(norm, ctx.scope(guide=guide or asks_for_guide(norm)))
    if not rows and norm != P.ROOT:
        raise NotFound(f"path {norm} holds nothing", hint=_TREE_HINT)
    return norm, rows


def ls(
    ctx: ServiceContext, path: str, as_of: AsOf = None, *, guide: bool = False
) -> list[PathEntry]:
    from embornal.service.facts.details import PathEntry  # ls and tree only: off recall's path

    norm, rows = _subtree(ctx, path, as_of, guide)
    parent_depth = len(P.segments(norm))
    return [
        PathEntry(r.path, r.fact_count, r.child_count)
        for r in rows
        if r.path != norm and len(P.segments(r.path)) == parent_depth + 1
    ]


def tree(
    ctx: ServiceContext, path: str, *, dirs_only: bool, as_of: AsOf = None, guide: bool = False
) -> TreeNode:
    from embornal.service.facts.details import TreeNode

    norm, rows = _subtree(ctx, path, as_of, guide)
    kids: dict[str, list[str]] = {}
    counts = {r.path: r for r in rows}
    for r in rows:
        parent = P.parent_of(r.path)
        if r.path != norm and parent is not None:
            kids.setdefault(parent, []).append(r.path)

    def build(p: str) -> TreeNode:
        children = [c for c in kids.get(p, []) if not dirs_only or counts[c].child_count > 0]
        row = counts.get(p)
        return TreeNode(
            path=p,
            name=P.name_of(p) or "/",
            fact_count=row.fact_count if row else 0,
            children=tuple(build(c) for c in sorted(children)),
        )

    return build(norm)


def cat(
    ctx: ServiceContext,
    path: str,
    as_of: AsOf = None,
    *,
    limit: int | None,
    order_by: str,
    recall: bool,
) -> list[FactView]:
    norm = P.normalize_path(path)
    if order_by not in ("date", "signal"):
        raise InvalidInput(f"order_by must be 'date' or 'signal', not {order_by!r}")
    n = check_limit(limit, MAX_LIMIT)
    if recall and as_of is not None:
        raise InvalidInput(
            "a read of a past time is never a recall", hint="Drop --recall, or drop --at."
        )
    reads, now = looking_back(ctx, as_of)
    facts = reads.facts_at(norm, ctx.scope())
    if not facts and not reads.subtree(norm, ctx.scope()):
        raise NotFound(f"path {norm} holds nothing", hint=_TREE_HINT)
    views = [FactView(f, strength(f.signals, now)) for f in facts]
    if order_by == "signal":
        views.sort(key=lambda v: -v.strength)
    views = views[:n]
    if recall:
        record_recall(ctx, [v.fact for v in views])
    return views


def show(ctx: ServiceContext, fact_id: str, as_of: AsOf = None) -> FactDetail:
    """The fact whole; its spine folded from its stream, ``c_eff`` and ``stale`` now (or
    as it was at ``as_of``)."""
    if as_of is not None:
        return show_at(ctx, fact_id, as_of)
    from embornal.domain.facts.aggregate import fold  # off the start-up path of recall
    from embornal.domain.spine import confidence as C
    from embornal.service.facts.details import FactDetail
    from embornal.service.shown_events import shown_events

    fact = ctx.resolve(fact_id)
    now = ctx.now()
    events = tuple(ctx.store.stream(fact.id))
    state = fold(events)
    assert state is not None
    since = C.anchor(state.last_confirmed_at, fact.created_at)
    status = fact.attributes.get("status")
    expired = fact.expired(now)
    because = None
    if expired and fact.expires_at is not None:
        because = f"lifetime {fact.lifetime} ran out at {format_time(fact.expires_at)}"
    return FactDetail(
        fact=fact,
        strength=strength(fact.signals, now),
        effective_tags=tuple(ctx.store.effective_tags(fact.id)),
        links=tuple(extract_links(fact.content)),
        events=tuple(shown_events(ctx, events)),
        confidence=state.confidence,
        c_eff=C.effective(state.confidence, fact.kind, since, now),
        stale=C.is_stale(
            state.confidence,
            fact.kind,
            since,
            now,
            status=status if isinstance(status, str) else None,
            lifetime=state.lifetime,
        ),
        last_confirmed_at=state.last_confirmed_at,
        evidence=state.evidence,
        source=_source(events[0]),
        pinned=state.pinned,
        user_weight=state.user_weight,
        lifetime=str(state.lifetime),
        expires_at=fact.expires_at,
        expired=expired,
        expired_because=because,
    )


def _source(stored: Event) -> Provenance | None:
    """Who put the fact here: its FactStored's actor, actor kind and source label."""
    from embornal.domain.spine.justification import Provenance

    label = getattr(stored.body, "source", None)
    try:
        return Provenance(stored.actor, stored.actor_kind, label)  # type: ignore[arg-type]
    except EmbornalError:  # a name or kind this build would refuse: not shown
        return None


def spine_series(ctx: ServiceContext, fact_id: str) -> SpineSeries:
    """The fact's confidence, ``c_eff`` and strength over time, up to now: its stream
    folded with the domain's maths, and its recalls from the log."""
    from embornal.domain.spine import series as series  # off the start-up path of recall

    fact = ctx.resolve(fact_id)
    return series.spine_series(
        ctx.store.stream(fact.id), ctx.store.recall_times(fact.id), ctx.now()
    )


def history(ctx: ServiceContext, target: str) -> list[Event]:
    if not isinstance(target, str):
        raise InvalidInput("give a fact id or a path")
    events: list[Event] = []
    if target.startswith("/"):
        norm = P.normalize_path(target)
        facts = ctx.store.facts_at(norm, ctx.scope(), include_inactive=True)
        path_events = ctx.store.stream(f"path:{norm}")
        if not facts and not (path_events and ctx.store.subtree(norm, ctx.scope())):
            raise NotFound(f"path {norm} has no history", hint="Check the path with ls.")
        ids = [f.id for f in facts]
        events.extend(path_events)
    else:
        ids = _chain(ctx, ctx.resolve(target))
    for fid in ids:
        events.extend(ctx.store.stream(fid))
    from embornal.service.shown_events import shown_events  # off the start-up path of recall

    return shown_events(ctx, sorted(events, key=lambda e: e.position))


def _chain(ctx: ServiceContext, fact: Fact) -> list[str]:
    """The ids of the supersession chain that ``fact`` belongs to, visible ones only."""
    vis = ctx.scope()
    seen = [fact.id]
    back = fact
    while back.supersedes_id and back.supersedes_id not in seen:
        prev = ctx.store.get_fact(back.supersedes_id, vis)
        if prev is None:
            break
        seen.insert(0, prev.id)
        back = prev
    fwd = fact
    while fwd.superseded_by and fwd.superseded_by not in seen:
        nxt = ctx.store.get_fact(fwd.superseded_by, vis)
        if nxt is None:
            break
        seen.append(nxt.id)
        fwd = nxt
    return seen
