"""What the timeline's MCP tools return (decisions 0088–0090): compact models of
:mod:`embornal.service.history.timeline_results`, keyed ``memory_id`` as
memory-as-history's tools answer; the link tools answer as ``link`` and ``links`` do."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from embornal.interfaces.graph.mcp_out import MemoryLinksOut
from embornal.interfaces.mcp.results import iso

__all__ = ["BY_OUTPUT", "RESULTS", "HistoryHitsOut", "TimelineOut"]


class EntryOut(BaseModel):
    memory_id: str
    id: str = Field(description="The memory id again (memory-as-history's name).")
    content: str
    path: str
    event_at: str | None = Field(None, description="When the event happened; null: unknown.")
    session_id: str | None = None
    session_position: int | None = None

    @classmethod
    def of(cls, e: Any) -> EntryOut:
        return cls(
            memory_id=e.fact.id,
            id=e.fact.id,
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
    memories: list[EntryOut] = Field(
        description="The hits, then their evidence, each memory once (memory-as-history's list)."
    )

    @classmethod
    def of(cls, hits: Any) -> HistoryHitsOut:
        out: list[HitOut] = []
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
        fields = set(EntryOut.model_fields)
        seen: dict[str, EntryOut] = {}
        for entry in [*out, *(e for hit in out for e in hit.evidence)]:
            seen.setdefault(entry.id, EntryOut(**entry.model_dump(include=fields)))
        return cls(hits=out, memories=list(seen.values()))


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

RESULTS: dict[str, tuple[type[BaseModel], _Project]] = {
    "memory_links": (MemoryLinksOut, lambda r, a: MemoryLinksOut.of_links(r)),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], _Project]] = {
    "list[TimelineEntry]": (
        TimelineOut,
        lambda r, a: TimelineOut(memories=[EntryOut.of(e) for e in r]),
    ),
    "list[HistoryHit]": (HistoryHitsOut, lambda r, a: HistoryHitsOut.of(r)),
}
