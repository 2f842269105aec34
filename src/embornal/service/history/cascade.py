"""The recall cascade (docs/model.md, The chronicle and the recall cascade; decisions 0095
and 0097): anchors
first, then the active canon, then embornal's ordinary recall, with the stale
interpretations, the usable narrative or its review notice, and the open conflicts.

``limit`` is one budget for the three sections of memories: the anchors are always whole
(identity is never cut), the canon fills what they leave, the ordinary memories what is
left then. A memory shows once, in the first section it belongs to; the open conflicts
are those whose members are all live, so nothing forgotten comes back through them.
``frame`` filters every section of memories (a filter, not an access boundary: decision
0078); what the subject may not read is in no section, since every read here is made in
its scope.

``search`` is the same cascade for a query, each candidate read again from the store
as the answer is made (live, readable, not forgotten, not expired) and nothing
reinforced; ``search_archive`` gives the unpinned material a budget of its own, so the
anchors cannot crowd it out.

None of them answers the memory's own guide (the facts the first migration wrote under
``/memory``): it is the manual of the memory, not a memory of its subject's work, and it
names the CLI's commands. A new memory recalls nothing; ``cat /memory`` reads the guide.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from embornal.domain import paths as P
from embornal.domain.facts.fact import Fact
from embornal.domain.guide import is_guide_path
from embornal.domain.history.canon import check_label
from embornal.domain.recall.relative_time import check_asked
from embornal.errors import InvalidInput
from embornal.service.conflicts.declared import list_conflicts
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.context import ServiceContext, check_limit
from embornal.service.history import canon, protocol
from embornal.service.history.cascade_results import Cascade
from embornal.service.narratives import accounts as narratives
from embornal.service.recall import Recaller, record_recall, without_guide_hits
from embornal.service.results import RecallHit

__all__ = ["ANCHOR_SCAN", "cascade", "search", "search_archive"]

ANCHOR_SCAN = 1000
"""At most this many anchors are read (the soft limit is 12: decision 0065)."""

_FRAME_WIDENING = 8
"""With a frame, the ordinary recall is asked for this many times ``limit`` candidates,
so that the frame's own memories can fill the budget."""


def cascade(
    ctx: ServiceContext,
    query: str | None = None,
    *,
    limit: int | None = None,
    frame: str | None = None,
    mode: str = "auto",
    under: str | None = None,
    scope: str | None = None,
    reinforce: bool = True,
    fresh: bool = False,
    now: datetime | str | None = None,
    rerank: bool = False,
    guide: bool = False,
) -> Cascade:
    """The cascade for ``query`` (None: the strongest memories), as the subject sees it;
    ``rerank``: the ordinary recall's best candidates reordered by the cross-encoder;
    ``guide``: with the guide under ``/memory`` (left out otherwise, decision 0154)."""
    n = check_limit(limit, ctx.default_limit)
    if query is not None and not isinstance(query, str):
        raise InvalidInput(f"the query must be text, not {type(query).__name__}")
    label = check_label(frame, "frame", required=False)
    canon_scope = check_label(scope, "scope", required=False)
    prefix = P.normalize_path(under) if under is not None else None
    asked = check_asked(now)
    vis, now = ctx.scope(), ctx.now()
    recaller = Recaller(ctx.store, ctx.semantic, ctx.fusion, ctx.reranking.when(rerank))
    recaller.resolve_mode(mode)  # bad input before anything is read
    wanted = n if label is None else n * _FRAME_WIDENING
    ranked = without_guide_hits(
        lambda k: recaller.recall(query, k, vis, now, under=prefix, mode=mode, asked=asked),
        ctx.store,
        wanted,
        vis,
        guide=guide or prefix not in (None, P.ROOT),
    )
    anchors = [
        f
        for f in ctx.store.canon.anchor_facts(vis, limit=ANCHOR_SCAN)
        if guide or not is_guide_path(f.path)  # the guide's anchors: only when asked
    ]
    entries = [e for e in canon.list_canon(ctx, canon_scope) if e.eligible_for_recall]
    if fresh:
        live = _live(ctx, [*anchors, *(e.fact for e in entries), *(h.fact for h in ranked)], now)
        anchors = [f for f in anchors if f.id in live]
        entries = [e for e in entries if e.fact.id in live]
        ranked = [h for h in ranked if h.fact.id in live]
    if label is not None:
        framed = _in_frame(
            ctx, label, [*anchors, *(e.fact for e in entries), *(h.fact for h in ranked)]
        )
        anchors = [f for f in anchors if f.id in framed]
        entries = [e for e in entries if e.fact.id in framed]
        ranked = [h for h in ranked if h.fact.id in framed]
    hits = ranked[:n]
    taken = {f.id for f in anchors}
    kept = []
    for e in entries:
        if len(taken) >= n:
            break
        if e.fact.id not in taken:
            taken.add(e.fact.id)
            kept.append(e)
    room = max(0, n - len(taken))
    memories = [h for h in hits if h.fact.id not in taken][:room]
    if reinforce and not fresh:
        record_recall(ctx, [h.fact for h in hits])
    stale = protocol.due_for_review(ctx)
    open_conflicts = [c for c in list_conflicts(ctx, False) if _all_live(c, now)]
    if label is not None:
        framed = _in_frame(ctx, label, [d.fact for d in stale])
        stale = [d for d in stale if d.fact.id in framed]
        open_conflicts = _conflicts_in_frame(ctx, label, open_conflicts)
    view = narratives.usable_narrative(ctx, canon_scope)
    return Cascade(
        query,
        label,
        n,
        tuple(anchors),
        tuple(kept),
        tuple(memories),
        tuple(hits),
        tuple(stale),
        view.narrative,
        view.narrative_review,
        tuple(open_conflicts),
    )


def search(
    ctx: ServiceContext,
    query: str,
    *,
    limit: int | None = None,
    frame: str | None = None,
    mode: str = "auto",
    under: str | None = None,
    scope: str | None = None,
    all: bool = False,
) -> Cascade:
    """The cascade for ``query``, each candidate checked again at answer time; it
    reinforces nothing. ``all``: the guide under ``/memory`` too (decision 0154)."""
    text = _query(query, "search")
    return cascade(
        ctx,
        text,
        limit=limit,
        frame=frame,
        mode=mode,
        under=under,
        scope=scope,
        reinforce=False,
        fresh=True,
        guide=all,
    )


def search_archive(
    ctx: ServiceContext,
    query: str,
    *,
    limit: int | None = None,
    frame: str | None = None,
    mode: str = "auto",
    under: str | None = None,
) -> list[RecallHit]:
    """The best ``limit`` unpinned memories for ``query`` (of ``frame``): a budget of
    their own, which no anchor takes a place of. Each is checked again at answer time;
    nothing is reinforced."""
    text = _query(query, "search_archive")
    n = check_limit(limit, ctx.default_limit)
    label = check_label(frame, "frame", required=False)
    prefix = P.normalize_path(under) if under is not None else None
    vis, now = ctx.scope(), ctx.now()
    recaller = Recaller(ctx.store, ctx.semantic, ctx.fusion)
    pinned = ctx.store.protocol.anchor_count(vis)
    wanted = (n if label is None else n * _FRAME_WIDENING) + pinned  # the guide is pinned
    ranked = recaller.recall(text, wanted, vis, now, under=prefix, mode=mode)
    live = _live(ctx, [h.fact for h in ranked], now)
    found = [
        h
        for h in ranked
        if h.fact.id in live and not live[h.fact.id].pinned and not is_guide_path(h.fact.path)
    ]  # never the guide
    if label is not None:
        framed = _in_frame(ctx, label, [h.fact for h in found])
        found = [h for h in found if h.fact.id in framed]
    return found[:n]


def _query(query: object, what: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput(
            f"{what} needs a query: the words to look for",
            hint='Give a query, e.g. search(query="deploy"); recall() without one gives the '
            "anchors and the strongest memories.",
        )
    return query


def _live(ctx: ServiceContext, facts: Iterable[Fact], now: datetime) -> dict[str, Fact]:
    """The facts read again now in the subject's scope, by id: those still active and
    not expired (a forgotten, superseded, expired or hidden one is left out)."""
    ids = list(dict.fromkeys(f.id for f in facts))
    return {
        f.id: f
        for f in ctx.store.get_facts(ids, ctx.scope())
        if f.state == "active" and not f.expired(now)
    }


def _all_live(found: ConflictRecord, now: datetime) -> bool:
    """Whether every member of a conflict is live: one forgotten, superseded, expired or
    purged since it was opened keeps the conflict out of recall (its text with it); the
    conflict stays in ``list_conflicts``, where it is looked at on purpose."""
    return all(m.state == "active" and not m.expired(now) for m in found.members)


def _in_frame(ctx: ServiceContext, frame: str, facts: Sequence[Fact]) -> set[str]:
    frames = ctx.store.canon.frames_of(list(dict.fromkeys(f.id for f in facts)))
    return {key for key, value in frames.items() if value == frame}


def _conflicts_in_frame(
    ctx: ServiceContext, frame: str, found: Sequence[ConflictRecord]
) -> list[ConflictRecord]:
    """The conflicts with a member in ``frame``."""
    framed = _in_frame(ctx, frame, [m for c in found for m in c.members])
    return [c for c in found if any(m.id in framed for m in c.members)]
