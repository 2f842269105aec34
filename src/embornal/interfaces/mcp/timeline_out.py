"""What the timeline's MCP tools return (decisions 0088–0090): compact models of
:mod:`embornal.service.timeline_results`, keyed ``memory_id`` as
memory-as-history's tools answer; the link tools answer as ``link`` and ``links`` do."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.mcp.graph_results import LinkOut, LinksOut
from embornal.interfaces.mcp.history_out import MemoryOut
from embornal.interfaces.mcp.results import iso

__all__ = ["TIMELINE_RESULTS", "HistoryHitsOut", "TimelineOut"]


class EntryOut(BaseModel):
    memory_id: str
    content: str
    path: str
    event_at: str | None = Field(None, description="When the event happened; null: unknown.")
    session_id: str | None = None
    session_position: int | None = None

    @classmethod
    def of(cls, e: Any) -> EntryOut:
        return cls(
            memory_id=e.fact.id,
            content=e.fact.content,
            path=e.fact.path,
            event_at=iso(e.event_at),
            session_id=e.session_id,
            session_position=e.session_position,
        )


class TimelineOut(BaseModel):
    memories: list[EntryOut]


class EvidenceOut(EntryOut):
    via: str = Field(description="link or session: how it was reached from the hit.")
    offset: int | None = Field(None, description="Places from the hit in its session.")
    relation: str | None = None
    direction: str | None = Field(None, description="out: from the hit; in: towards it.")


class HitOut(EntryOut):
    score: float
    evidence: list[EvidenceOut] = Field(default_factory=list)


class HistoryHitsOut(BaseModel):
    hits: list[HitOut]

    @classmethod
    def of(cls, hits: Any) -> HistoryHitsOut:
        out = []
        for h in hits:
            evidence = [
                EvidenceOut(
                    **EntryOut.of(e.entry).model_dump(),
                    via=e.via,
                    offset=e.offset,
                    relation=e.relation,
                    direction=e.direction,
                )
                for e in h.evidence
            ]
            out.append(
                HitOut(
                    **EntryOut.of(h.entry).model_dump(), score=round(h.score, 3), evidence=evidence
                )
            )
        return cls(hits=out)


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

TIMELINE_RESULTS: dict[str, tuple[type[BaseModel], _Project]] = {
    "set_history_context": (MemoryOut, lambda r, a: MemoryOut.of_status(r)),
    "timeline": (TimelineOut, lambda r, a: TimelineOut(memories=[EntryOut.of(e) for e in r])),
    "search_history": (HistoryHitsOut, lambda r, a: HistoryHitsOut.of(r)),
    "link_memories": (LinkOut, lambda r, a: LinkOut.of(r)),
    "unlink_memories": (LinkOut, lambda r, a: LinkOut.of(r)),
    "memory_links": (LinksOut, lambda r, a: LinksOut.of(r)),
}
