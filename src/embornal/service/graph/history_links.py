"""memory-as-history's link tools on embornal's typed links (decision 0090): ``link_memories``,
``unlink_memories`` and ``memory_links`` are :mod:`.links`' link, unlink and one-hop
walk, memory-as-history's relation names mapped onto the closed vocabulary
(:data:`~embornal.domain.history.context.SEED_RELATIONS`).

A link is what the caller asserts: it is an event on the source's stream (audited with
its reason, retractable, its history in ``audit_log`` and ``memory history``) and it
changes nothing else: not the tier, stage, corroboration, sensitivity or anchor of
either memory.
"""

from __future__ import annotations

from dataclasses import replace

from embornal.domain.history.context import relation_of
from embornal.service.context import ServiceContext
from embornal.service.graph import links
from embornal.service.graph.results import Link, LinkGraph, LinkRecord

__all__ = ["link_memories", "memory_links", "unlink_memories"]


def link_memories(
    ctx: ServiceContext, source_id: str, target_id: str, relation: str, *, reason: str | None
) -> Link:
    """Link ``source_id —relation→ target_id`` (a memory-as-history name or a typed relation)."""
    rel = relation_of(relation)
    return links.link(ctx, source_id, rel.value, target_id, reason=reason)


def unlink_memories(
    ctx: ServiceContext, source_id: str, target_id: str, relation: str, *, reason: str | None
) -> Link:
    """Retract the link ``source_id —relation→ target_id``."""
    rel = relation_of(relation)
    return links.unlink(ctx, source_id, rel.value, target_id, reason=reason)


def memory_links(
    ctx: ServiceContext,
    fact_id: str,
    *,
    relation: str | None = None,
    direction: str = "both",
    limit: int | None = None,
    include_retired: bool = False,
) -> LinkGraph:
    """The memories one link away from ``fact_id`` (live and readable), with the links;
    and its links as made (``links``), the retracted ones too with ``include_retired``."""
    rel = None if relation is None else relation_of(relation).value
    graph = links.links(ctx, fact_id, relation=rel, direction=direction, depth=1, limit=limit)
    made = _records(ctx, graph.root.id, rel, direction, retired=bool(include_retired))
    return replace(graph, links=made)


def _records(
    ctx: ServiceContext, root: str, relation: str | None, direction: str, *, retired: bool
) -> tuple[LinkRecord, ...]:
    """Each time a link of ``root`` was made, from the log, and its retraction; only the
    links whose other end the subject may read now (a live memory in its scope)."""
    made: list[LinkRecord] = []
    live: dict[tuple[str, str, str], int] = {}  # a live link: its place in ``made``
    for e in ctx.store.links.link_events(root):
        key = (str(e.payload["fact_id"]), str(e.payload["relation"]), str(e.payload["target_id"]))
        if e.type == "FactLinked":
            live[key] = len(made)
            made.append(LinkRecord(*key, linked_at=e.recorded_at, reason=e.reason))
        elif key in live:
            i = live.pop(key)
            made[i] = replace(made[i], retired_at=e.recorded_at, retirement_reason=e.reason)
    wanted = [
        m
        for m in made
        if (retired or m.retired_at is None)
        and (relation is None or m.relation == relation)
        and (direction == "both" or (m.source_id == root) == (direction == "out"))
    ]
    ends = {m.target_id if m.source_id == root else m.source_id for m in wanted}
    readable = {r.fact.id for r in ctx.store.timeline.context_rows(sorted(ends), ctx.scope())}
    return tuple(
        m for m in wanted if (m.target_id if m.source_id == root else m.source_id) in readable
    )
