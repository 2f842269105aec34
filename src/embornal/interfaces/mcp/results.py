"""What the MCP tools return: small pydantic models, built from the service results.

Each successful call carries the model twice: as ``structuredContent`` (checked
against the tool's ``outputSchema``) and as compact JSON text for clients that
read only ``content``. A failed call carries ``{"error", "message", "hint"}`` as
JSON text with ``isError`` set, and no ``structuredContent``: some clients check
structured content against the output schema even on errors.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field, RootModel

from embornal.domain.clock import format_time
from embornal.domain.events import Event
from embornal.domain.facts.fact import DEFAULT_KIND, Fact
from embornal.domain.facts.tags import OWNER_KEY
from embornal.interfaces.wire import time_of, to_wire
from embornal.service.results import FactDetail, FactView, PathEntry, RecallHit, TreeNode

Wire = dict[str, Any]

__all__ = [
    "CatOut",
    "ConfidenceOut",
    "DueOut",
    "EventOut",
    "FactOut",
    "FindOut",
    "HistoryOut",
    "HitOut",
    "ImportanceOut",
    "KindsOut",
    "LsOut",
    "RecallOut",
    "ShowOut",
    "StateOut",
    "SupersedeOut",
    "TreeOut",
    "UndoOut",
    "UnpinOut",
    "ViewOut",
    "error_result",
    "ok_result",
]


def iso(moment: datetime | str | None) -> str | None:
    """``2026-01-01T12:00:00Z``: UTC, whole seconds (ids give the exact order); a wire
    time (with microseconds) is cut to its second."""
    if moment is None:
        return None
    return format_time(time_of(moment) if isinstance(moment, str) else moment, micro=False)


def _tags(tags: Iterable[str]) -> list[str]:
    """The fact's own tags as ``k=v``; the owner tag is left out (``show`` gives the owner)."""
    return [t for t in tags if t.partition("=")[0] != OWNER_KEY]


def _round(x: float) -> float:
    return round(x, 3)


# -- models ---------------------------------------------------------------------------


class FactOut(BaseModel):
    id: str
    path: str
    content: str
    created_at: str
    tags: list[str] = Field(default_factory=list)
    kind: str | None = Field(None, description="The fact's kind; left out for a plain fact.")
    attributes: dict[str, Any] | None = Field(
        None, description="The kind's attributes (see kinds()); left out when there are none."
    )
    visibility: str | None = Field(None, description="private or restricted:a,b; absent: shared")

    @classmethod
    def of(cls, fact: Fact) -> FactOut:
        return cls(**_fact_fields(to_wire(fact)))


class ConfidenceOut(FactOut):
    """A fact after confirm, contradict or add_evidence: how far it is trusted now."""

    confidence: float | None = Field(
        None, description="0 to 1: how far the fact is trusted (confirm raises it)."
    )
    last_confirmed_at: str | None = None

    @classmethod
    def of_fact(cls, fact: Fact) -> ConfidenceOut:
        w = to_wire(fact)
        c = w.get("confidence")
        return cls(
            **_fact_fields(w),
            confidence=None if c is None else _round(c),
            last_confirmed_at=iso(w.get("last_confirmed_at")),
        )


class ImportanceOut(FactOut):
    """A fact after pin, unpin, set_weight or set_lifetime."""

    pinned: bool = False
    user_weight: float | None = Field(None, description="0 to 1 (0.5 neutral); null: none.")
    lifetime: str = Field("standard", description="permanent, standard, ephemeral, until:DATE.")
    expires_at: str | None = Field(None, description="When it leaves recall (until, ephemeral).")
    warning: str | None = Field(None, description="A pin past the soft anchor limit.")

    @classmethod
    def of_fact(cls, fact: Fact) -> ImportanceOut:
        w = to_wire(fact)
        return cls(
            **_fact_fields(w),
            pinned=w["pinned"],
            user_weight=w["user_weight"],
            lifetime=w["lifetime"],
            expires_at=iso(w["expires_at"]),
            warning="; ".join(fact.warnings) or None,
        )


class UnpinOut(ImportanceOut):
    """A fact after unpin: ``unpinned`` confirms the state asked for, whether or not it
    was pinned."""

    memory_id: str
    unpinned: bool = True

    @classmethod
    def of_fact(cls, fact: Fact) -> UnpinOut:
        return cls(**ImportanceOut.of_fact(fact).model_dump(), memory_id=fact.id)


class DueItem(FactOut):
    confidence: float
    c_eff: float = Field(description="The confidence decayed to now.")
    threshold: float = Field(description="Below this c_eff the fact is stale.")


class DueOut(BaseModel):
    facts: list[DueItem] = Field(description="Most urgent first.")
    hint: str | None = None

    @classmethod
    def of(cls, due: Iterable[Any]) -> DueOut:
        items = [
            DueItem(
                **_fact_fields(to_wire(d.fact)),
                confidence=_round(d.confidence),
                c_eff=_round(d.c_eff),
                threshold=d.threshold,
            )
            for d in due
        ]
        hint = None if items else "Nothing is stale: every fact was vouched for recently enough."
        return cls(facts=items, hint=hint)


class ViewOut(FactOut):
    strength: float = Field(description="1.0 when fresh or just recalled; falls toward 0 unused.")

    @classmethod
    def of_view(cls, view: FactView) -> ViewOut:
        w = to_wire(view)
        return cls(**_fact_fields(w["fact"]), strength=_round(w["strength"]))


class HitOut(ViewOut):
    score: float = Field(
        description="How well it matches (by keyword, meaning or both) plus half its strength; "
        "higher is better."
    )

    @classmethod
    def of_hit(cls, hit: RecallHit) -> HitOut:
        w = to_wire(hit)
        return cls(
            **_fact_fields(w["fact"]), strength=_round(w["strength"]), score=_round(w["score"])
        )


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
        wire: list[Wire] = to_wire(list(entries))
        return cls(
            entries=[
                LsEntry(path=e["path"], facts=e["fact_count"], children=e["child_count"])
                for e in wire
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

        def walk(node: Wire) -> None:
            nodes.append(TreeNodeOut(path=node["path"], facts=node["fact_count"]))
            for child in node["children"]:
                walk(child)

        wire: Wire = to_wire(root)
        walk(wire)
        return cls(path=wire["path"], nodes=nodes)


class CatOut(BaseModel):
    facts: list[ViewOut]


class StateOut(BaseModel):
    id: str
    path: str
    content: str
    state: str = Field(description="active, superseded, forgotten or purged.")

    @classmethod
    def of(cls, fact: Fact) -> StateOut:
        w = to_wire(fact)
        return cls(id=w["id"], path=w["path"], content=w["content"], state=w["state"])


class EventOut(BaseModel):
    position: int = Field(description="The event's id: what undo(event_id=...) takes.")
    at: str
    type: str
    stream: str = Field(description="The fact id, or path:/x for a path's own events.")
    actor: str
    actor_kind: str | None = Field(None, description="person, assistant, system or import.")
    reason: str | None = None
    content: str | None = None
    supersedes_id: str | None = None
    undoes: int | None = Field(None, description="The position of the event this undid.")

    @classmethod
    def of(cls, event: Event) -> EventOut:
        return cls.of_wire(to_wire(event))

    @classmethod
    def of_wire(cls, w: Wire) -> EventOut:
        payload = w["payload"]
        content = payload.get("content")
        supersedes = payload.get("supersedes_id")
        undoes = payload.get("undoes")
        return cls(
            position=w["position"],
            at=iso(w["recorded_at"]) or "",
            type=w["type"],
            stream=w["stream_id"],
            actor=w["actor"],
            actor_kind=w.get("actor_kind"),
            reason=w["reason"],
            content=content if isinstance(content, str) else None,
            supersedes_id=supersedes if isinstance(supersedes, str) else None,
            undoes=undoes if isinstance(undoes, int) else None,
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
    source: dict[str, str] | None = Field(
        None, description="Who put it here: subject, actor_kind and the label given."
    )

    @classmethod
    def of_detail(cls, detail: FactDetail) -> ShowOut:
        w = to_wire(detail)
        fact = w["fact"]
        return cls(
            **_fact_fields(fact),
            strength=_round(w["strength"]),
            state=fact["state"],
            owner=fact["owner"],
            recall_count=fact["recall_count"],
            last_recall_at=iso(fact["last_recall_at"]),
            stability_days=_round(fact["stability_days"]),
            supersedes_id=fact["supersedes_id"],
            superseded_by=fact["superseded_by"],
            links=w["links"],
            effective_tags=[
                t["tag"] if t["source"] is None else f"{t['tag']} (from {t['source']})"
                for t in w["effective_tags"]
            ],
            events=[EventOut.of_wire(e) for e in w["events"]],
            source={k: v for k, v in (w.get("source") or {}).items() if v is not None} or None,
        )


class HistoryOut(BaseModel):
    target: str
    events: list[EventOut]


class UndoOut(BaseModel):
    undone: int = Field(description="The position of the event undone.")
    events: list[EventOut] = Field(description="The events the undo appended.")


class SupersedeOut(FactOut):
    supersedes_id: str


class FindOut(BaseModel):
    facts: list[FactOut]
    hint: str | None = None

    @classmethod
    def of(cls, facts: Iterable[Fact]) -> FindOut:
        found = [FactOut.of(f) for f in facts]
        hint = None
        if not found:
            hint = "Nothing matched: try fewer conditions, a wider 'under', or recall(query=...)."
        return cls(facts=found, hint=hint)


class KindField(BaseModel):
    name: str
    type: str
    required: bool
    values: list[str] | None = Field(None, description="The allowed values.")
    minimum: float | None = None
    maximum: float | None = None


class KindOut(BaseModel):
    kind: str
    summary: str
    fields: list[KindField]
    rules: list[str] | None = None


class KindsOut(BaseModel):
    kinds: list[KindOut]

    @classmethod
    def of(cls, kinds: Iterable[Mapping[str, Any]]) -> KindsOut:
        return cls(
            kinds=[
                KindOut(
                    kind=k["kind"],
                    summary=k["summary"],
                    fields=[
                        KindField(**{n: f[n] for n in KindField.model_fields if n in f})
                        for f in k["fields"]
                    ],
                    rules=list(k["rules"]) or None,
                )
                for k in kinds
            ]
        )


def _fact_fields(fact: Wire) -> dict[str, Any]:
    """The compact fact the model sees, cut from the fact's wire shape: a plain fact
    (kind ``fact``, no attributes) carries neither field."""
    return {
        "id": fact["id"],
        "path": fact["path"],
        "content": fact["content"],
        "created_at": iso(fact["created_at"]) or "",
        "tags": _tags(fact["tags"]),
        "kind": None if fact["kind"] == DEFAULT_KIND else fact["kind"],
        "attributes": fact["attributes"] or None,
        "visibility": None if fact.get("visibility", "shared") == "shared" else fact["visibility"],
    }


# -- tool results -----------------------------------------------------------------------


def _text(data: Any) -> TextContent:
    return TextContent(
        type="text", text=json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    )


KEEP_NULL = "keep_null"
"""The class attribute naming a result model's fields answered as ``null`` when unset (the
rest are left out when null): the keys its documentation lists, as ``narrative`` of recall
(decision 0096)."""


def _kept(model: BaseModel, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (``model`` dumped without nulls) with the model's ``keep_null`` fields, in
    nested models too."""
    for name in getattr(type(model), KEEP_NULL, ()):
        data.setdefault(name, None)
    for name in type(model).model_fields:
        value, dumped = getattr(model, name), data.get(name)
        if isinstance(value, BaseModel) and isinstance(dumped, dict):
            _kept(value, dumped)
        elif isinstance(value, list) and isinstance(dumped, list):
            for item, part in zip(value, dumped, strict=False):
                if isinstance(item, BaseModel) and isinstance(part, dict):
                    _kept(item, part)
    return data


def _bare(value: Any) -> Any:
    """An answer that is not an object, dumped as :func:`ok_result` dumps one."""
    if isinstance(value, BaseModel):
        return _kept(value, value.model_dump(mode="json", exclude_none=True))
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def ok_result(out: BaseModel) -> CallToolResult:
    """The answer ``out``; a :class:`~pydantic.RootModel` answers its value itself (a list,
    or null): as the text, and as ``structuredContent`` wrapped as ``{"result": ...}``, the
    SDK's form for an answer that is not an object (memory-as-history's ``audit_log``)."""
    if isinstance(out, RootModel):
        value = _bare(out.root)
        return CallToolResult(content=[_text(value)], structured_content={"result": value})
    data = _kept(out, out.model_dump(mode="json", exclude_none=True))
    return CallToolResult(content=[_text(data)], structured_content=data)


def error_result(code: str, message: str, hint: str = "") -> CallToolResult:
    return CallToolResult(
        content=[_text({"error": code, "message": message, "hint": hint})], is_error=True
    )
