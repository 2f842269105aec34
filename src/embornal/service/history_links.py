"""memory-as-history's link tools on embornal's typed links (decision 0090): ``link_memories``,
``unlink_memories`` and ``memory_links`` are :mod:`.links`' link, unlink and one-hop
walk, memory-as-history's relation names mapped onto the closed vocabulary
(:data:`~embornal.domain.history_context.SEED_RELATIONS`).

A link is what the caller asserts: it is an event on the source's stream (audited with
its reason, retractable, its history in ``audit_log`` and ``memory history``) and it
changes nothing else: not the tier, stage, corroboration, sensitivity or anchor of
either memory.
"""

from __future__ import annotations

from embornal.domain.history_context import relation_of
from embornal.service import links
from embornal.service.context import ServiceContext
from embornal.service.graph_results import Link, LinkGraph

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
) -> LinkGraph:
    """The memories one link away from ``fact_id`` (live and readable), with the links."""
    rel = None if relation is None else relation_of(relation).value
    return links.links(ctx, fact_id, relation=rel, direction=direction, depth=1, limit=limit)
