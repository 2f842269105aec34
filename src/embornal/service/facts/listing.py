"""The memory list and the whole-memory graph (decision 0159): reads through the subject's
read filter, filtered, counted, sorted and paged by the store (``list_rows``,
``link_map``), never by loading the memory into Python.

The guide under ``/memory`` is left out unless asked for (``guide``) or the list is under
``/memory`` (decision 0154). Neither read is a recall.
"""

from __future__ import annotations

from dataclasses import dataclass

from embornal.domain import paths as P
from embornal.domain.clock import format_time
from embornal.domain.facts.fact import Fact
from embornal.domain.guide import asks_for_guide
from embornal.domain.spine.strength import strength
from embornal.errors import InvalidInput
from embornal.service.context import ServiceContext
from embornal.storage.contract.store import ListFilter, ListRow

__all__ = [
    "MAX_GRAPH_NODES",
    "MAX_PAGE_SIZE",
    "STAGES",
    "TIERS",
    "ListedFact",
    "MapNode",
    "MemoryList",
    "MemoryMap",
    "link_map",
    "list_memories",
]

MAX_PAGE_SIZE = 200
MAX_GRAPH_NODES = 300
STAGES = ("working", "consolidated")
TIERS = ("archive", "testimony", "interpretation")


@dataclass(frozen=True)
class ListedFact:
    """A fact of the list: its strength now, its stage and tier (None: no protocol row)."""

    fact: Fact
    strength: float
    stage: str | None
    tier: str | None


@dataclass(frozen=True)
class MemoryList:
    """One page (from 1) of the list, its size, and how many facts the list holds."""

    facts: tuple[ListedFact, ...]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True)
class MapNode:
    """A fact of the graph and how many links it has on the whole map."""

    fact: Fact
    degree: int


@dataclass(frozen=True)
class MemoryMap:
    """The most linked facts the subject may read, the links between them
    ``(source, relation, target)``, and the totals of the whole map (drawn or not)."""

    nodes: tuple[MapNode, ...]
    edges: tuple[tuple[str, str, str], ...]
    total_nodes: int
    total_edges: int


def _unit(name: str, value: float | None) -> None:
    if value is not None and not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, not {value}")


def _check(where: ListFilter) -> ListFilter:
    if where.stage is not None and where.stage not in STAGES:
        raise InvalidInput(f"stage must be one of {', '.join(STAGES)}, not {where.stage!r}")
    if where.tier is not None and where.tier not in TIERS:
        raise InvalidInput(f"tier must be one of {', '.join(TIERS)}, not {where.tier!r}")
    for name in ("min_confidence", "max_confidence", "min_strength", "max_strength"):
        _unit(name, getattr(where, name))
    if where.under is None:
        return where
    under = P.normalize_path(where.under)
    return ListFilter(
        under,
        where.kind,
        where.tag,
        where.stage,
        where.tier,
        where.owner,
        where.min_confidence,
        where.max_confidence,
        where.min_strength,
        where.max_strength,
        where.sort,
    )


def list_memories(
    ctx: ServiceContext,
    where: ListFilter,
    *,
    page: int = 1,
    page_size: int = 50,
    guide: bool = False,
) -> MemoryList:
    """The live facts the subject may read that ``where`` keeps: page ``page`` (from 1) of
    ``page_size``; the guide only with ``guide`` or a list under ``/memory``."""
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidInput(f"page size must be between 1 and {MAX_PAGE_SIZE}")
    if page < 1:
        raise InvalidInput("page must be 1 or more")
    where = _check(where)
    now = ctx.now()
    scope = ctx.scope(guide=guide or asks_for_guide(where.under))
    got = ctx.store.listing.list_rows(
        where, scope, now=format_time(now), offset=(page - 1) * page_size, limit=page_size
    )

    def listed(row: ListRow) -> ListedFact:
        return ListedFact(row.fact, strength(row.fact.signals, now), row.stage, row.tier)

    return MemoryList(tuple(listed(r) for r in got.rows), got.total, page, page_size)


def link_map(
    ctx: ServiceContext,
    *,
    under: str | None = None,
    relation: str | None = None,
    limit: int = 60,
    guide: bool = False,
) -> MemoryMap:
    """The ``limit`` most linked facts the subject may read (links with one end at or
    below ``under``, of ``relation``) and the links between them; every link's two ends
    pass the read filter."""
    if not 1 <= limit <= MAX_GRAPH_NODES:
        raise InvalidInput(f"the graph draws between 1 and {MAX_GRAPH_NODES} facts")
    norm = None if under is None else P.normalize_path(under)
    scope = ctx.scope(guide=guide or asks_for_guide(norm))
    got = ctx.store.listing.link_map(scope, under=norm, relation=relation, limit=limit)
    facts = {f.id: f for f in ctx.store.get_facts([n for n, _ in got.nodes], scope)}
    nodes = tuple(MapNode(facts[n], d) for n, d in got.nodes if n in facts)
    return MemoryMap(nodes, got.edges, got.total_nodes, got.total_edges)
