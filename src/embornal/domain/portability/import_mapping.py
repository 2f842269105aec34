"""What another memory tool's data becomes here: proposal items (decisions 0076, 0077).

The readers (:mod:`embornal.adapters.importers`) turn each tool's files into the plain
records below; the functions here turn those into the items of ONE proposal — creates,
links between them (``#N``: the fact item N creates) and archives of what the tool had
forgotten. Every fact keeps where it came from as evidence: a ``uri`` of the form
``import:TOOL/ID`` whose note holds the original times; its source label is
``import:TOOL`` and its confidence the prior of the actor kind ``import``.

Two tools hold a graph (the MCP memory server's JSONL, a basic-memory project): each
entity becomes a fact of the kind its type names (``person``, ``organization``,
``location``, ``skill``; any other type a ``fact``), at ``UNDER/TYPE/NAME``; each
observation a ``fact`` at the entity's path, linked ``about`` it; each relation a typed
link when the closed vocabulary has the verb and the kinds allow it, otherwise
``relates_to`` with the original verb in the link's reason. mem0's memories become facts
at ``UNDER/USER``. memory-as-history's database is mapped in
:mod:`embornal.domain.portability.import_history`.

Pure: no I/O, no clock; ids are the proposal's (``#N``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from embornal.domain.bounds import MAX_CONTENT_BYTES
from embornal.domain.events import ActorKind
from embornal.domain.facts.tags import MAX_VALUE_LENGTH
from embornal.domain.graph.rules import SYMMETRIC, Relation, emits
from embornal.domain.graph.rules import TARGETS as LINK_TARGETS
from embornal.domain.paths import MAX_SEGMENT_LENGTH, normalize_path
from embornal.domain.proposals.aggregate import MAX_ITEMS, REF_PREFIX
from embornal.domain.spine.confidence import prior
from embornal.domain.spine.justification import MAX_EVIDENCE_NOTE
from embornal.errors import EmbornalError, InvalidImport

__all__ = [
    "FORMATS",
    "IMPORT_CONFIDENCE",
    "METADATA_TAG_PREFIX",
    "Entity",
    "Graph",
    "Items",
    "Mem0Memory",
    "Observation",
    "Planned",
    "Related",
    "default_under",
    "entity_kind",
    "link_relation",
    "map_graph",
    "map_mem0",
    "refuse",
    "segment",
    "source_label",
    "under_path",
    "whole_text",
]

FORMATS = ("memory-as-history", "basic-memory", "mem0", "mcp-memory")
IMPORT_CONFIDENCE = prior(ActorKind.IMPORT)
"""The confidence every imported fact starts at: the prior of the actor kind import."""
NOTHING = "nothing was imported"


def refuse(where: str, what: str) -> InvalidImport:
    """The one error of a bad source: where (a line, a file, a record) and what."""
    return InvalidImport(
        f"{where}: {what}; {NOTHING}",
        hint="docs/importing.md says what each tool's source must hold.",
    )


#: How deep a record's lists and objects may nest (the tools' own nest two or three deep).
MAX_NESTING = 64
NESTED_TOO_DEEP = "the data is nested too deep"


def whole_text(value: object, where: str, depth: int = 0) -> None:
    """Refuse a record whose text (in it, its lists and objects, keys too) holds a NUL
    or a lone surrogate (a ``\\ud800`` escape: not a character, no database stores it),
    or that nests deeper than :data:`MAX_NESTING`, naming ``where``."""
    if isinstance(value, str):
        if "\x00" in value:
            raise refuse(where, "a text holds a NUL character")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise refuse(where, "a text holds a lone surrogate (not a character)") from None
        return
    if not isinstance(value, list | tuple | dict):
        return
    if depth >= MAX_NESTING:
        raise refuse(where, NESTED_TOO_DEEP)
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    for item in items:
        whole_text(item, where, depth + 1)


def source_label(tool: str) -> str:
    """The source label of an imported fact and of its proposal: ``import:TOOL``."""
    return f"import:{tool}"


def default_under(tool: str) -> str:
    return f"/imported/{tool}"


def under_path(under: str | None, tool: str) -> str:
    """The path everything of one import goes under (``--under``; default
    ``/imported/TOOL``), or the error naming it."""
    raw = default_under(tool) if under is None else under
    try:
        return normalize_path(raw)
    except EmbornalError as e:
        raise refuse(f"--under {raw[:80]!r}", e.message) from None


_NOT_IN_SEGMENT = re.compile(r"[^\w.-]+")


def segment(text: str, where: str) -> str:
    """A path segment named after ``text``: folded, runs of anything but letters, digits,
    ``.``, ``_``, ``-`` made one ``-``, cut to the longest segment; the error names
    ``where`` when nothing of it is left."""
    folded = unicodedata.normalize("NFKC", text).strip().lower()
    out = _NOT_IN_SEGMENT.sub("-", folded).strip("-._")[:MAX_SEGMENT_LENGTH].strip("-._")
    if not out:
        raise refuse(where, f"{text[:60]!r} names no path segment (no letter or digit)")
    return out


def join(base: str, parts: Sequence[str], where: str) -> str:
    raw = base.rstrip("/") + "".join("/" + p for p in parts)
    try:
        return normalize_path(raw)
    except EmbornalError as e:
        raise refuse(where, e.message) from None


def tag(key: str, value: object) -> str:
    """``key=value`` with the value made one line without commas, cut to the limit."""
    flat = "".join(ch if ch.isprintable() and ch != "," else " " for ch in str(value))
    text = " ".join(flat.split())[:MAX_VALUE_LENGTH]
    return f"{key}={text or '-'}"


def note(parts: Mapping[str, object]) -> str | None:
    """An evidence note: ``key: value; …`` of the parts given, cut to the limit."""
    text = "; ".join(f"{k}: {v}" for k, v in parts.items() if v not in (None, "", [], {}))
    return text[:MAX_EVIDENCE_NOTE] or None


def origin(tool: str, original_id: str, times: Mapping[str, object]) -> dict[str, Any]:
    """The evidence naming the record an imported fact comes from."""
    ref: dict[str, Any] = {"type": "uri", "value": f"import:{tool}/{_uri_part(original_id)}"}
    text = note(times)
    if text is not None:
        ref["note"] = text
    return ref


def _uri_part(text: str) -> str:
    """An id as one URI path part: no space, no control character."""
    return "".join(ch if ch.isprintable() and not ch.isspace() else "_" for ch in text)[:2000]


@dataclass
class Items:
    """The items of one proposal as they are made; ``#N`` names an earlier create."""

    tool: str
    items: list[dict[str, Any]] = field(default_factory=list)
    facts: int = 0
    links: int = 0
    archived: int = 0
    skipped: list[str] = field(default_factory=list)
    _linked: set[tuple[str, str, str]] = field(default_factory=set)

    def create(
        self,
        path: str,
        content: str,
        *,
        kind: str = "fact",
        attributes: Mapping[str, object] | None = None,
        tags: Sequence[str] = (),
        evidence: Sequence[Mapping[str, Any]] = (),
        reason: str | None = None,
    ) -> str:
        if len(content.encode("utf-8")) > MAX_CONTENT_BYTES:
            raise refuse(reason or path, f"the text is over {MAX_CONTENT_BYTES} bytes")
        item: dict[str, Any] = {
            "type": "create",
            "path": path,
            "content": content,
            "kind": kind,
            "confidence": IMPORT_CONFIDENCE,
            "source": source_label(self.tool),
        }
        if attributes:
            item["attributes"] = dict(attributes)
        if tags:
            item["tags"] = list(dict.fromkeys(tags))
        if evidence:
            item["evidence"] = [dict(e) for e in evidence]
        if reason:
            item["reason"] = reason
        self.facts += 1
        return self._add(item)

    def link(
        self, source: str, relation: Relation, target: str, reason: str, *, where: str
    ) -> bool:
        """A link between two items' facts; False (nothing added) for a duplicate, and
        for a link of a fact to itself, which is named in ``skipped`` (``where``: the
        record it comes from)."""
        if source == target:
            self.skipped.append(f"{where}: {relation.value} to itself, not linked")
            return False
        a, b = (
            (min(source, target), max(source, target))
            if relation in SYMMETRIC
            else (source, target)
        )
        key = (a, relation.value, b)
        if key in self._linked:
            return False
        self._linked.add(key)
        self.links += 1
        self._add(
            {
                "type": "link",
                "source": source,
                "relation": relation.value,
                "target": target,
                "reason": reason,
            }
        )
        return True

    def archive(self, ref: str, reason: str) -> None:
        self.archived += 1
        self._add({"type": "archive", "fact_id": ref, "reason": reason})

    def _add(self, item: dict[str, Any]) -> str:
        if len(self.items) >= MAX_ITEMS:
            raise refuse(
                f"the {self.tool} source",
                f"it makes more than {MAX_ITEMS} proposal items; import it in parts",
            )
        self.items.append(item)
        return f"{REF_PREFIX}{len(self.items)}"


@dataclass(frozen=True)
class Planned:
    """The items of one import and what they make."""

    items: list[dict[str, Any]]
    facts: int
    links: int
    archived: int
    skipped: tuple[str, ...]


def planned(made: Items) -> Planned:
    if not made.items:
        raise refuse(f"the {made.tool} source", "it holds no memory to import")
    return Planned(made.items, made.facts, made.links, made.archived, tuple(made.skipped))


# -- kinds and relations --------------------------------------------------------------------

_KINDS: Mapping[str, tuple[str, str]] = {
    "person": ("person", "full_name"),
    "people": ("person", "full_name"),
    "user": ("person", "full_name"),
    "human": ("person", "full_name"),
    "organization": ("organization", "name"),
    "organisation": ("organization", "name"),
    "company": ("organization", "name"),
    "team": ("organization", "name"),
    "org": ("organization", "name"),
    "institution": ("organization", "name"),
    "location": ("location", "name"),
    "place": ("location", "name"),
    "city": ("location", "name"),
    "country": ("location", "name"),
    "skill": ("skill", "name"),
}


def entity_kind(entity_type: str, name: str) -> tuple[str, dict[str, object] | None]:
    """The kind an entity type names, with the attribute its name fills; ``fact`` (no
    attributes: the content is the statement) for any other type."""
    found = _KINDS.get(entity_type.strip().lower().replace(" ", "_"))
    if found is None:
        return "fact", None
    kind, key = found
    return kind, {key: name[:200]}


_VERBS: Mapping[str, Relation] = {
    "about": Relation.ABOUT,
    "involves": Relation.INVOLVES,
    "part_of": Relation.PART_OF,
    "member_of": Relation.PART_OF,
    "belongs_to": Relation.PART_OF,
    "owned_by": Relation.OWNED_BY,
    "works_at": Relation.WORKS_AT,
    "works_for": Relation.WORKS_AT,
    "employed_by": Relation.WORKS_AT,
    "located_in": Relation.LOCATED_IN,
    "lives_in": Relation.LOCATED_IN,
    "based_in": Relation.LOCATED_IN,
    "relates_to": Relation.RELATES_TO,
    "related_to": Relation.RELATES_TO,
    "links_to": Relation.RELATES_TO,
    "derived_from": Relation.DERIVED_FROM,
    "contradicts": Relation.CONTRADICTS,
    "supersedes": Relation.SUPERSEDES,
    "updates": Relation.SUPERSEDES,
}


def link_relation(verb: str, source_kind: str, target_kind: str) -> Relation:
    """The typed relation a verb names when the vocabulary has it and the kinds allow it
    (a person ``works_at`` an organization); ``relates_to`` otherwise."""
    rel = _VERBS.get(re.sub(r"[\s-]+", "_", verb.strip().lower()))
    if rel is None or rel not in emits(source_kind):
        return Relation.RELATES_TO
    wanted = LINK_TARGETS.get(rel)
    kinds = frozenset({source_kind}) if wanted == "same" else wanted
    if kinds is not None and target_kind not in kinds:
        return Relation.RELATES_TO
    return rel


# -- graphs: the MCP memory server, basic-memory ----------------------------------------------


@dataclass(frozen=True)
class Observation:
    text: str
    category: str | None = None
    tags: tuple[str, ...] = ()
    context: str | None = None


@dataclass(frozen=True)
class Entity:
    """A node: its unique key in the source, display name, type, its file's folders and
    name (basic-memory; else the path is ``TYPE/NAME``), body text, observations, times,
    and where it is in the source."""

    key: str
    name: str
    type: str
    where: str
    observations: tuple[Observation, ...] = ()
    folder: tuple[str, ...] = ()
    body: str | None = None
    tags: tuple[str, ...] = ()
    times: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Related:
    source: str
    verb: str
    target: str
    where: str
    context: str | None = None


@dataclass(frozen=True)
class Graph:
    tool: str
    entities: tuple[Entity, ...]
    relations: tuple[Related, ...]


def _observation(obs: Observation) -> tuple[str, list[str]]:
    tags = [tag("category", obs.category)] if obs.category else []
    tags += [tag("tags", " ".join(obs.tags))] if obs.tags else []
    text = obs.text if obs.context is None else f"{obs.text} ({obs.context})"
    return text, tags


def map_graph(graph: Graph, under: str | None) -> Planned:
    """A graph's items: each entity, then its observations (``about`` it), then the
    relations; a relation to an entity the source lacks is skipped and named."""
    tool = graph.tool
    base = under_path(under, tool)
    made = Items(tool)
    refs: dict[str, tuple[str, str]] = {}
    for e in graph.entities:
        kind, attributes = entity_kind(e.type, e.name)
        if e.folder:  # a file's own place: its folders and its name
            parts = [segment(p, f"{e.where}: file path") for p in e.folder]
        else:
            parts = [
                segment(e.type, f"{e.where}: entity type"),
                segment(e.name, f"{e.where}: entity name"),
            ]
        path = join(base, parts, e.where)
        content = e.name if not e.body else f"{e.name}\n\n{e.body}"
        tags = [tag("type", e.type)] + ([tag("tags", " ".join(e.tags))] if e.tags else [])
        ref = made.create(
            path,
            content,
            kind=kind,
            attributes=attributes,
            tags=tags,
            evidence=[origin(tool, e.key, e.times)],
            reason=f"{tool} entity {e.name[:80]}",
        )
        refs[e.key] = (ref, kind)
        for n, obs in enumerate(e.observations, 1):
            text, obs_tags = _observation(obs)
            key = f"{e.key}#observation-{n}"
            ob = made.create(
                path,
                text,
                tags=obs_tags,
                evidence=[origin(tool, key, e.times)],
                reason=f"{tool} observation {n} of {e.name[:80]}",
            )
            made.link(
                ob,
                Relation.ABOUT,
                ref,
                f"{tool}: an observation of {e.name[:80]}",
                where=f"{e.where}: observation {n}",
            )
    for r in graph.relations:
        if r.source not in refs or r.target not in refs:
            missing = r.source if r.source not in refs else r.target
            made.skipped.append(f"{r.where}: {r.verb} to {missing[:80]!r}, no such entity")
            continue
        (src, src_kind), (dst, dst_kind) = refs[r.source], refs[r.target]
        rel = link_relation(r.verb, src_kind, dst_kind)
        why = f"{tool} relation {r.verb[:80]}" + (f" ({r.context[:200]})" if r.context else "")
        made.link(src, rel, dst, why, where=f"{r.where}: {r.verb[:80]}")
    return planned(made)


# -- mem0 ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mem0Memory:
    """One memory of a mem0 export (``get_all`` results)."""

    id: str
    memory: str
    where: str
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    metadata: Mapping[str, object] = field(default_factory=dict)
    categories: tuple[str, ...] = ()
    created_at: str | None = None
    updated_at: str | None = None


_TAG_KEY = re.compile(r"^[a-z0-9][a-z0-9_.:-]{0,58}$")
METADATA_TAG_PREFIX = "meta."
"""mem0 metadata ``{"type": "x"}`` becomes the tag ``meta.type=x``: a key of its own, which
no rule reads unless the person writes one naming it, so an export's ``visibility:
public`` (or ``team: eng``) never widens who reads the fact (``visibility=public`` would)."""


def map_mem0(memories: Sequence[Mem0Memory], under: str | None) -> Planned:
    """One fact per memory at ``UNDER/USER`` (``UNDER/agents/AGENT`` with no user, or
    ``UNDER/shared``); its categories as tags, its scalar metadata as ``meta.KEY`` tags
    (never an access tag), the whole metadata and the times in the evidence note."""
    tool = "mem0"
    base = under_path(under, tool)
    made = Items(tool)
    for m in memories:
        if m.user_id:
            parts = [segment(m.user_id, f"{m.where}: user_id")]
        elif m.agent_id:
            parts = ["agents", segment(m.agent_id, f"{m.where}: agent_id")]
        else:
            parts = ["shared"]
        path = join(base, parts, m.where)
        tags = [tag("category", c) for c in m.categories[:8]]
        for k, v in list(m.metadata.items())[:8]:
            key = k.strip().lower()
            if _TAG_KEY.match(key) and isinstance(v, str | int | float):
                tags.append(tag(METADATA_TAG_PREFIX + key, v))
        times = {
            "created_at": m.created_at,
            "updated_at": m.updated_at,
            "run_id": m.run_id,
            "agent_id": m.agent_id if m.user_id else None,
            "metadata": json.dumps(m.metadata, sort_keys=True, default=str) if m.metadata else None,
        }
        made.create(
            path,
            m.memory,
            tags=tags,
            evidence=[origin(tool, m.id, times)],
            reason=f"mem0 memory {m.id[:80]}",
        )
    return planned(made)
