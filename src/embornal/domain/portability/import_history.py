"""memory-as-history's database as proposal items (decision 0077).

A memory becomes a fact at ``UNDER`` (``UNDER/FRAME`` when it has a social frame), its
tier, consolidation status, pin and sensitivity as tags, and as evidence: the record it
came from (``import:memory-as-history/memories/ID``, its times in the note), its
original source label and every corroborating source (``document``), and every audit
entry about it (``observation``: the action and its reason, at its time). A forgotten
memory is imported and then archived, with the reason it was forgotten. A narrative
becomes a fact at ``UNDER/narratives`` linked ``derived_from`` the memories it draws
on; a superseded one is linked from the one that replaced it (``supersedes``) and
archived. A memory link is a typed link where the vocabulary has its relation
(``updates``: ``supersedes``), ``relates_to`` otherwise. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from embornal.domain.graph.rules import Relation
from embornal.domain.portability.import_mapping import (
    NESTED_TOO_DEEP,
    Items,
    Planned,
    join,
    link_relation,
    note,
    origin,
    planned,
    refuse,
    tag,
    under_path,
    whole_text,
)
from embornal.domain.portability.import_mapping import segment as make_segment

__all__ = ["HistoryData", "HistoryMemory", "HistoryNarrative", "map_history", "memory_ids"]

TOOL = "memory-as-history"
_MAX_AUDIT = 40
"""The most audit entries kept as evidence of one memory (the newest are kept)."""


@dataclass(frozen=True)
class HistoryMemory:
    id: str
    content: str
    created_at: str
    source: str | None = None
    status: str | None = None
    tier: str | None = None
    frame: str | None = None
    sensitive: bool = False
    consolidated_at: str | None = None
    consolidation_reason: str | None = None
    forgotten_at: str | None = None
    forgotten_reason: str | None = None
    pin_reason: str | None = None
    pinned_at: str | None = None
    event_at: str | None = None
    session_id: str | None = None


@dataclass(frozen=True)
class HistoryNarrative:
    id: str
    content: str
    reason: str | None
    created_at: str | None
    memory_ids: tuple[str, ...] = ()
    superseded_at: str | None = None
    superseded_by: str | None = None
    scope: str | None = None


@dataclass(frozen=True)
class HistoryData:
    memories: tuple[HistoryMemory, ...]
    corroborations: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Each memory's corroborating sources: (source, at)."""
    audit: Mapping[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    """Each memory's audit entries: (action, reason, at), oldest first."""
    narratives: tuple[HistoryNarrative, ...] = ()
    links: tuple[tuple[str, str, str, str], ...] = ()
    """Its active memory links: (from, to, relation, reason)."""


def _evidence(m: HistoryMemory, data: HistoryData) -> list[dict[str, object]]:
    times = {
        "created_at": m.created_at,
        "event_at": m.event_at,
        "session_id": m.session_id,
        "consolidated_at": m.consolidated_at,
        "consolidation_reason": m.consolidation_reason,
        "pinned_at": m.pinned_at,
        "pin_reason": m.pin_reason,
        "forgotten_at": m.forgotten_at,
    }
    out: list[dict[str, object]] = [origin(TOOL, f"memories/{m.id}", times)]
    if m.source and m.source.strip():
        out.append(
            {"type": "document", "value": m.source.strip()[:8000], "note": "the original source"}
        )
    for source, at in data.corroborations.get(m.id, ()):
        out.append(
            {
                "type": "document",
                "value": source[:8000],
                "note": note({"corroborated at": at}) or "corroborated",
            }
        )
    for action, reason, at in data.audit.get(m.id, ())[-_MAX_AUDIT:]:
        text = f"{action}: {reason}" if reason else action
        out.append(
            {
                "type": "observation",
                "value": text[:8000],
                "note": note({"audit entry at": at}) or "audit entry",
            }
        )
    return out


def _tags(m: HistoryMemory) -> list[str]:
    tags = [tag("tier", m.tier or "archive"), tag("status", m.status or "working")]
    if m.pinned_at is not None:
        tags.append(tag("pinned", "true"))
    if m.sensitive:
        tags.append(tag("sensitive", "true"))
    if m.frame:
        tags.append(tag("frame", m.frame))
    return tags


def map_history(data: HistoryData, under: str | None) -> Planned:
    """The items of a memory-as-history database: memories, narratives, their links,
    then the archives of what it had forgotten or superseded."""
    base = under_path(under, TOOL)
    made = Items(TOOL)
    refs: dict[str, str] = {}
    forgotten: list[tuple[str, str]] = []
    for m in data.memories:
        where = f"memory {m.id}"
        parts = [make_segment(m.frame, f"{where}: frame")] if m.frame else []
        ref = made.create(
            join(base, parts, where),
            m.content,
            tags=_tags(m),
            evidence=_evidence(m, data),
            reason=f"{TOOL} memory {m.id[:80]}",
        )
        refs[m.id] = ref
        if m.forgotten_at is not None:
            why = m.forgotten_reason or "no reason recorded"
            forgotten.append((ref, f"forgotten in {TOOL} at {m.forgotten_at}: {why}"[:500]))
    narratives: dict[str, str] = {}
    for n in data.narratives:
        where = f"narrative {n.id}"
        scoped = n.scope and n.scope != "global"
        parts = ["narratives"] + (
            [make_segment(n.scope or "", f"{where}: scope")] if scoped else []
        )
        times = {"created_at": n.created_at, "reason": n.reason, "superseded_at": n.superseded_at}
        narratives[n.id] = made.create(
            join(base, parts, where),
            n.content,
            tags=[tag("narrative", "true")],
            evidence=[origin(TOOL, f"narratives/{n.id}", times)],
            reason=f"{TOOL} narrative {n.id[:80]}",
        )
    for n in data.narratives:
        for mid in n.memory_ids:
            if mid not in refs:
                made.skipped.append(f"narrative {n.id}: draws on {mid[:40]!r}, no such memory")
                continue
            made.link(
                narratives[n.id],
                Relation.DERIVED_FROM,
                refs[mid],
                f"{TOOL}: narrative {n.id[:40]} draws on memory {mid[:40]}",
                where=f"narrative {n.id[:40]}",
            )
        newer = narratives.get(n.superseded_by or "")
        if newer is not None:
            made.link(
                newer,
                Relation.SUPERSEDES,
                narratives[n.id],
                f"{TOOL}: narrative {n.superseded_by} replaced {n.id}"[:500],
                where=f"narrative {n.id[:40]}",
            )
    for a, b, verb, reason in data.links:
        if a not in refs or b not in refs:
            made.skipped.append(f"memory link {a[:40]} {verb[:40]} {b[:40]}: no such memory")
            continue
        made.link(
            refs[a],
            link_relation(verb, "fact", "fact"),
            refs[b],
            f"{TOOL} link {verb[:40]}: {reason}"[:500],
            where=f"memory link {a[:40]} {verb[:40]} {b[:40]}",
        )
    for ref, why in forgotten:
        made.archive(ref, why)
    for n in data.narratives:
        if n.superseded_at is not None or n.superseded_by:
            made.archive(narratives[n.id], f"superseded in {TOOL} at {n.superseded_at}"[:500])
    return planned(made)


def memory_ids(raw: object, where: str) -> tuple[str, ...]:
    """A narrative's ``memory_ids`` column (a JSON array of ids, or empty)."""
    if raw in (None, ""):
        return ()
    try:
        value = json.loads(str(raw))
    except ValueError:
        raise refuse(where, "memory_ids is not a JSON array") from None
    except RecursionError:
        raise refuse(where, NESTED_TOO_DEEP) from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise refuse(where, "memory_ids is not a JSON array of ids")
    whole_text(value, where)
    return tuple(value)
