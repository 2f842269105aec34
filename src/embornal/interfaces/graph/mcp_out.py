"""What the graph's tools give the model: a link, a fact's neighbourhood (compact views of
the wire shapes of :mod:`embornal.interfaces.wire`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from embornal.domain.narratives.accounts import format_link
from embornal.interfaces.mcp.results import FactOut, iso
from embornal.interfaces.mcp.schemas import KEPT_NULL

__all__ = [
    "BY_OUTPUT",
    "LinkOut",
    "LinkRecordOut",
    "LinksOut",
    "MemoryLinksOut",
    "NeighbourOut",
]


class LinkOut(BaseModel):
    """A link as stored (canonical direction), and its id: what narrate's link_ids and
    unlink_memories(link_id) take."""

    source_id: str
    relation: str
    target_id: str
    link_id: str = Field(description="SOURCE:relation:TARGET.")
    id: str = Field(description="The link id again (memory-as-history's name).")

    @classmethod
    def of(cls, link: Any) -> LinkOut:
        link_id = format_link(link.source_id, link.relation, link.target_id)
        return cls(
            source_id=link.source_id,
            relation=link.relation,
            target_id=link.target_id,
            link_id=link_id,
            id=link_id,
        )


class LinkRecordOut(LinkOut):
    """One time a link was made and, if it was since retracted, its retirement; with
    memory-as-history's names of its ends."""

    keep_null: ClassVar[tuple[str, ...]] = ("reason", "retired_at", "retirement_reason")

    from_id: str = Field(description="source_id again (memory-as-history's name).")
    to_id: str = Field(description="target_id again (memory-as-history's name).")
    reason: str | None = Field(None, json_schema_extra=KEPT_NULL)
    created_at: str = Field(description="When it was made.")
    retired_at: str | None = Field(
        None, description="When it was retracted; null: live.", json_schema_extra=KEPT_NULL
    )
    retirement_reason: str | None = Field(None, json_schema_extra=KEPT_NULL)

    @classmethod
    def of_record(cls, r: Any) -> LinkRecordOut:
        link = LinkOut.of(r)
        return cls(
            **link.model_dump(),
            from_id=r.source_id,
            to_id=r.target_id,
            reason=r.reason,
            created_at=iso(r.linked_at) or "",
            retired_at=iso(r.retired_at),
            retirement_reason=r.retirement_reason,
        )


class NeighbourOut(FactOut):
    depth: int = Field(description="How many links from the fact asked about.")
    via: str = Field(
        description="How it was reached: the relation as read from the fact before it, "
        "e.g. works_at, or subject_of (the about links pointing at it)."
    )
    from_id: str = Field(description="The fact it was reached from.")
    link_id: str = Field(description="The link followed: SOURCE:relation:TARGET.")


class LinksOut(BaseModel):
    id: str = Field(description="The fact asked about.")
    path: str
    linked: list[NeighbourOut] = Field(description="Nearest first.")
    content_links: list[str] = Field(description="The [[/path]] links in its content.")
    relationships: list[FactOut] = Field(
        description="The relationship facts naming it as subject or object."
    )
    hint: str | None = None

    @classmethod
    def of(cls, graph: Any) -> LinksOut:
        first: dict[str, Any] = {}
        for step in graph.steps:
            first.setdefault(step.to_id, step)
        linked = [
            NeighbourOut(
                **FactOut.of(n.fact).model_dump(),
                depth=n.depth,
                via=first[n.fact.id].name,
                from_id=first[n.fact.id].from_id,
                link_id=format_link(
                    first[n.fact.id].source_id,
                    first[n.fact.id].relation,
                    first[n.fact.id].target_id,
                ),
            )
            for n in graph.nodes
        ]
        hint = None
        if graph.truncated:
            hint = "More facts than the limit: raise limit or narrow with relation."
        elif not linked:
            hint = "No typed links: link facts with link(source, relation, target)."
        return cls(
            id=graph.root.id,
            path=graph.root.path,
            linked=linked,
            content_links=list(graph.content_links),
            relationships=[FactOut.of(f) for f in graph.relationships],
            hint=hint,
        )


class MemoryLinksOut(LinksOut):
    """memory_links: the neighbourhood, and the memory's links as made."""

    links: list[LinkRecordOut] = Field(
        description="Its links as made, oldest first (retracted ones too with include_retired)."
    )

    @classmethod
    def of_links(cls, graph: Any) -> MemoryLinksOut:
        out = LinksOut.of(graph)
        return cls(**dict(out), links=[LinkRecordOut.of_record(r) for r in graph.links])


BY_OUTPUT: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], BaseModel]]] = {
    "Link": (LinkOut, lambda r, a: LinkOut.of(r)),
    "LinkGraph": (LinksOut, lambda r, a: LinksOut.of(r)),
}
