"""Typed links: link, unlink, the bounded walk of ``links`` and the dangling report
(docs/model.md, Links and merges; decisions 0052, 0053).

A link is an event on its source fact's stream, decided by
:func:`~embornal.domain.graph.rules.decide_link` over the source's state and the target's (both
loaded, the target readable by the subject). Making or taking off a link takes ``write``
on the fact named as its source; the target must be readable (else "no fact", as a
missing one).

The walk is breadth first and bounded by ``depth`` and ``limit``; each fact is met once, so
cycles end. It follows links only through facts the subject may read and that are live: a
forgotten or purged fact is a dead end (left out, listed by :func:`dangling`), a merged one
is read as its survivor, whose own links include those of the facts merged into it.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.bounds import MAX_LIMIT, whole_in_range
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.facts.links import extract_links
from embornal.domain.graph.rules import (
    INVERSE,
    SYMMETRIC,
    LinkFacts,
    Relation,
    UnlinkFacts,
    canonical,
    decide_link,
    decide_unlink,
    parse_relation,
    query_relation,
)
from embornal.errors import InvalidInput, InvalidLink
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import on_fact
from embornal.service.graph.results import DanglingLink, Link, LinkedFact, LinkGraph, LinkStep

__all__ = ["MAX_DEPTH", "dangling", "link", "links", "unlink"]

MAX_DEPTH = 5
_DEFAULT_LIMIT = 100
_DEAD = ("forgotten", "purged")
_MERGE_HOPS = 8
_SYMMETRIC = frozenset(r.value for r in SYMMETRIC)


def _ends(
    ctx: ServiceContext, operation: str, source: str, relation: object, target: str
) -> tuple[Fact, Relation, Fact]:
    rel = parse_relation(relation)
    src = ctx.target(operation, source, "source")
    dst = ctx.target(operation, target, "target")
    return src, rel, dst


def link(
    ctx: ServiceContext, source: str, relation: str, target: str, *, reason: str | None = None
) -> Link:
    """Link ``source —relation→ target`` (a symmetric relation is stored from the smaller id)."""
    why = check_reason(reason, required=False)
    src, rel, dst = _ends(ctx, "link", source, relation, target)
    if src.id == dst.id:
        raise InvalidLink(f"fact {src.id} cannot be linked to itself")
    a, b = canonical(src.id, rel, dst.id)  # a symmetric link lives on the smaller id
    other = ctx.store.fact_state(b)
    command = LinkFacts(a, rel, b)
    now = ctx.now()
    on_fact(ctx, a, lambda s: decide_link(s, command, now, other), why, "linking facts")
    return Link(a, rel.value, b)


def unlink(
    ctx: ServiceContext, source: str, relation: str, target: str, *, reason: str | None = None
) -> Link:
    """Take the link ``source —relation→ target`` off (one that dangles too)."""
    why = check_reason(reason, required=False)
    src, rel, dst = _ends(ctx, "unlink", source, relation, target)
    a, b = canonical(src.id, rel, dst.id)
    command = UnlinkFacts(a, rel, b)
    now = ctx.now()
    on_fact(ctx, a, lambda s: decide_unlink(s, command, now), why, "unlinking facts")
    return Link(a, rel.value, b)


def _check_depth(depth: object) -> int:
    if not whole_in_range(depth, 1, MAX_DEPTH):
        raise InvalidInput(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    assert isinstance(depth, int)
    return depth


def _check_limit(limit: object) -> int:
    if limit is None:
        return _DEFAULT_LIMIT
    if not whole_in_range(limit, 1, MAX_LIMIT):
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    assert isinstance(limit, int)
    return limit


class _Walk:
    """The state of one walk: the facts met (live and readable), the dead ends."""

    def __init__(self, ctx: ServiceContext, root: Fact) -> None:
        self.ctx = ctx
        self.facts: dict[str, Fact] = {root.id: root}
        self.dead: set[str] = set()

    def survivors(self, ids: Sequence[str]) -> dict[str, str]:
        """Each id read as the fact it was merged into (itself when none), chains followed."""
        out = {i: i for i in ids}
        pending = list(out)
        for _ in range(_MERGE_HOPS):
            merged = self.ctx.store.links.merged_into(sorted({out[i] for i in pending}))
            if not merged:
                break
            pending = [i for i in pending if out[i] in merged]
            for i in pending:
                out[i] = merged[out[i]]
        return out

    def readable(self, ids: Sequence[str]) -> None:
        """Load the facts among ``ids`` not met yet; the hidden and the dead become dead ends."""
        wanted = [i for i in dict.fromkeys(ids) if i not in self.facts and i not in self.dead]
        if not wanted:
            return
        found = {f.id: f for f in self.ctx.store.get_facts(wanted, self.ctx.scope())}
        for i in wanted:
            fact = found.get(i)
            if fact is None or fact.state in _DEAD:
                self.dead.add(i)
            else:
                self.facts[i] = fact


def links(
    ctx: ServiceContext,
    fact_id: str,
    *,
    relation: str | None = None,
    direction: str = "both",
    depth: int = 1,
    limit: int | None = None,
) -> LinkGraph:
    """The facts linked to ``fact_id`` up to ``depth`` links away, breadth first, at most
    ``limit`` of them; ``relation`` may be an inverse name (``subject_of``)."""
    query = query_relation(relation, direction)
    max_depth = _check_depth(depth)
    most = _check_limit(limit)
    root = ctx.resolve(fact_id)
    walk = _Walk(ctx, root)
    store = ctx.store
    rel = None if query.relation is None else query.relation.value
    fetch = "both" if query.relation is None or query.relation in SYMMETRIC else query.direction
    nodes: list[LinkedFact] = []
    steps: list[LinkStep] = []
    met = {root.id}
    seen_steps: set[tuple[str, str, str]] = set()
    frontier = [root.id]
    truncated = False
    for level in range(1, max_depth + 1):
        if not frontier or truncated:
            break
        merged = store.links.merged_sources(frontier)
        owner = {i: i for i in frontier}
        for survivor, sources in merged.items():
            owner.update((s, survivor) for s in sources)
        rows = store.links.link_rows(list(owner), fetch, rel)
        found: list[tuple[str, str, str, str, str]] = []  # the stored link, from, to
        for s, r, t in rows:
            symmetric = r in _SYMMETRIC
            if s in owner and (symmetric or query.direction != "in"):
                found.append((s, r, t, owner[s], t))
            if t in owner and (symmetric or query.direction != "out"):
                found.append((s, r, t, owner[t], s))
        ends = walk.survivors([f[4] for f in found])
        walk.readable(list(ends.values()))
        following: list[str] = []
        for s, r, t, start, other in found:
            to = ends[other]
            if to == start or to not in walk.facts:
                continue
            name = r if start == s or r in _SYMMETRIC else INVERSE[Relation(r)]
            key = (s, r, t)
            if key in seen_steps:  # each stored link once, from the nearer end
                continue
            if to not in met:
                if len(nodes) >= most:
                    truncated = True
                    continue
                met.add(to)
                nodes.append(LinkedFact(walk.facts[to], level))
                following.append(to)
            seen_steps.add(key)
            steps.append(LinkStep(s, r, t, start, to, name, level))
        frontier = following
    related = store.links.relationship_ids([root.id])
    relationships = (
        [f for f in store.get_facts(related, ctx.scope()) if f.state not in _DEAD]
        if related
        else []
    )
    return LinkGraph(
        root,
        tuple(nodes),
        tuple(steps),
        tuple(extract_links(root.content)),
        tuple(relationships),
        truncated,
    )


def dangling(ctx: ServiceContext, *, limit: int | None = None) -> list[DanglingLink]:
    """The links from facts the subject may read whose target (one it may read too) is
    forgotten or purged: the maintenance report of decision 0053. Nothing is deleted."""
    most = _check_limit(limit)
    rows = ctx.store.links.dangling_rows(ctx.scope(), most)
    targets = {str(r[2]) for r in rows}
    readable = {f.id for f in ctx.store.get_facts(sorted(targets), ctx.scope())}
    return [
        DanglingLink(str(r[0]), str(r[1]), str(r[2]), str(r[3]))
        for r in rows
        if str(r[2]) in readable
    ]
