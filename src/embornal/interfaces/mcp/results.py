"""What the MCP tools return: small pydantic models, built from the service results.

Each successful call carries the model twice: as ``structuredContent`` (checked
against the tool's ``outputSchema``) and as compact JSON text for clients that
read only ``content``. A failed call carries ``{"error", "message", "hint"}`` as
JSON text with ``isError`` set, and no ``structuredContent``: some clients check
structured content against the output schema even on errors.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from embornal.domain.clock import format_time
from embornal.domain.events import Event
from embornal.domain.facts import Fact
from embornal.domain.tags import OWNER_KEY, Tag
from embornal.service.results import FactDetail, FactView, PathEntry, RecallHit, TreeNode

__all__ = [
    "CatOut",
    "EventOut",
    "FactOut",
    "HistoryOut",
    "HitOut",
    "LsOut",
    "RecallOut",
    "ShowOut",
    "StateOut",
    "SupersedeOut",
    "TreeOut",
    "ViewOut",
    "error_result",
    "ok_result",
]


def iso(moment: datetime | None) -> str | None:
    """``2026-01-01T12:00:00Z``: UTC, whole seconds (ids give the exact order)."""
    if moment is None:
        return None
    return format_time(moment, micro=False)


def _tags(tags: Iterable[Tag]) -> list[str]:
    """The fact's own tags as ``k=v``; the owner tag is left out (``show`` gives the owner)."""
    return [str(t) for t in tags if t.key != OWNER_KEY]


def _round(x: float) -> float:
    return round(x, 3)


# -- models ---------------------------------------------------------------------------


class FactOut(BaseModel):
    id: str
    path: str
    content: str
    created_at: str
    tags: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, fact: Fact) -> FactOut:
        return cls(**_fact_fields(fact))


class ViewOut(FactOut):
    strength: float = Field(description="1.0 when fresh or just recalled; falls toward 0 unused.")

    @classmethod
    def of_view(cls, view: FactView) -> ViewOut:
        return cls(**_fact_fields(view.fact), strength=_round(view.strength))


class HitOut(ViewOut):
    score: float = Field(
        description="How well it matches (by keyword, meaning or both) plus half its strength; "
        "higher is better."
    )

    @classmethod
    def of_hit(cls, hit: RecallHit) -> HitOut:
        return cls(**_fact_fields(hit.fact), strength=_round(hit.strength), score=_round(hit.score))


class RecallOut(BaseModel):
    hits: list[HitOut]
    hint: str | None = None


class LsEntry(BaseModel):
    path: str
    facts: int = Field(description="Facts stored on this path itself.")
    children: int = Field(description="Topics one level below it.")


class LsOut(BaseModel):
    entries: list[LsEntry]

    @classmethod
    def of(cls, entries: Iterable[PathEntry]) -> LsOut:
        return cls(
            entries=[
                LsEntry(path=e.path, facts=e.fact_count, children=e.child_count) for e in entries
            ],
        )


class TreeNodeOut(BaseModel):
    path: str
    facts: int


class TreeOut(BaseModel):
    path: str
    nodes: list[TreeNodeOut] = Field(description="Every topic below path, depth-first.")

    @classmethod
    def of(cls, root: TreeNode) -> TreeOut:
        nodes: list[TreeNodeOut] = []

        def walk(node: TreeNode) -> None:
            nodes.append(TreeNodeOut(path=node.path, facts=node.fact_count))
            for child in node.children:
                walk(child)

        walk(root)
        return cls(path=root.path, nodes=nodes)


class CatOut(BaseModel):
    facts: list[ViewOut]


class StateOut(BaseModel):
    id: str
    path: str
    content: str
    state: str = Field(description="active, superseded, forgotten or purged.")

    @classmethod
    def of(cls, fact: Fact) -> StateOut:
        return cls(id=fact.id, path=fact.path, content=fact.content, state=fact.state)


class EventOut(BaseModel):
    position: int
    at: str
    type: str
    stream: str = Field(description="The fact id, or path:/x for a path's own events.")
    actor: str
    reason: str | None = None
    content: str | None = None
    supersedes_id: str | None = None

    @classmethod
    def of(cls, event: Event) -> EventOut:
        payload = event.payload
        content = payload.get("content")
        supersedes = payload.get("supersedes_id")
        return cls(
            position=event.position,
            at=iso(event.recorded_at) or "",
            type=event.type,
            stream=event.stream_id,
            actor=event.actor,
            reason=event.reason,
            content=content if isinstance(content, str) else None,
            supersedes_id=supersedes if isinstance(supersedes, str) else None,
        )


class ShowOut(ViewOut):
    state: str
    owner: str
    recall_count: int
    last_recall_at: str | None = None
    stability_days: float
    supersedes_id: str | None = None
    superseded_by: str | None = None
    links: list[str] = Field(default_factory=list)
    effective_tags: list[str] = Field(
        default_factory=list, description="Own and inherited tags, as k=v (from /path)."
    )
    events: list[EventOut] = Field(default_factory=list)

    @classmethod
    def of_detail(cls, detail: FactDetail) -> ShowOut:
        fact = detail.fact
        return cls(
            **_fact_fields(fact),
            strength=_round(detail.strength),
            state=fact.state,
            owner=fact.owner,
            recall_count=fact.recall_count,
            last_recall_at=iso(fact.last_recall_at),
            stability_days=_round(fact.stability_days),
            supersedes_id=fact.supersedes_id,
            superseded_by=fact.superseded_by,
            links=list(detail.links),
            effective_tags=[
                str(tag) if source is None else f"{tag} (from {source})"
                for tag, source in detail.effective_tags
            ],
            events=[EventOut.of(e) for e in detail.events],
        )


class HistoryOut(BaseModel):
    target: str
    events: list[EventOut]


class SupersedeOut(FactOut):
    supersedes_id: str


def _fact_fields(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "path": fact.path,
        "content": fact.content,
        "created_at": iso(fact.created_at) or "",
        "tags": _tags(fact.tags),
    }


# -- tool results -----------------------------------------------------------------------


def _text(data: dict[str, Any]) -> TextContent:
    return TextContent(
        type="text", text=json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    )


def ok_result(out: BaseModel) -> CallToolResult:
    data = out.model_dump(mode="json", exclude_none=True)
    return CallToolResult(content=[_text(data)], structured_content=data)


def error_result(code: str, message: str, hint: str = "") -> CallToolResult:
    return CallToolResult(
        content=[_text({"error": code, "message": message, "hint": hint})], is_error=True
    )
