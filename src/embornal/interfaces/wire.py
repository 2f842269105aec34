"""One wire shape per result type: the JSON every interface sends and the client reads.

``to_wire(obj)`` turns a service result into plain JSON values (dicts in a fixed key
order, lists, text, numbers, booleans, null); ``from_wire(type, data)`` is its inverse
for the types the remote client reads back. The REST API, ``--json`` in the CLI and
the MCP results (a compact projection of these shapes, see
:mod:`embornal.interfaces.mcp.results`) all go through here, so a fact is serialized
one way. Pure and stdlib-only at import: the CLI's ``--json`` uses it without pydantic.

Times are ISO-8601 UTC with microseconds and ``Z``; a tag is ``"k=v"``; a fact also
carries its ``state`` and its kind's ``attributes`` (canonical JSON, as the log holds them).
The shapes of each capability's results are in its folder's ``wire`` module, found by
:mod:`.capabilities` and spliced in here: its ``shapes(core)`` answers its shapes and
readers, given the wire's own helpers (:class:`WireCore`; decision 0177)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from datetime import datetime

from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import Tag
from embornal.domain.recall.ranking import ScoreParts
from embornal.domain.records import record_fields
from embornal.domain.spine.justification import EvidenceRef, Provenance
from embornal.hints import Any, NamedTuple, TypeVar, cast
from embornal.interfaces import capabilities
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.graph.results import Link, LinkGraph
from embornal.service.history.results import (
    DueMemory,
    ForgottenMemory,
    MemoryStatus,
    ProvenanceReport,
)
from embornal.service.results import DueFact, FactDetail, FactView, PathEntry, RecallHit, TreeNode

__all__ = [
    "WIRE_TYPES",
    "Readers",
    "Shapes",
    "WireCore",
    "by_own_shape",
    "dumps",
    "effective_tag",
    "from_wire",
    "time_of",
    "to_wire",
]

_T = TypeVar("_T")
Wire = dict[str, Any]
Shapes = dict[type, Callable[[Any], Wire]]
"""Result type: the function that gives its wire shape."""
Readers = dict[type, Callable[[Mapping[str, Any]], Any]]
"""Result type: the function that reads it back from its wire shape."""


# Made from types, not written as a class: a class's annotations are text here, which
# ``typing`` would compile (decision 0182), and ``--json`` imports no typing (decision 0191).
WireCore = NamedTuple(  # noqa: UP014
    "WireCore",
    [
        # the shapes and readers of result types that go as their fields in order, each
        # field in its own type's shape (a fact, a time ISO-8601 UTC, a nested record an
        # object)
        ("by_fields", Callable[..., tuple[Shapes, Readers]]),
        # the reader of one such type, where its shape is its own (its fields in another
        # order)
        ("reading", Callable[[type], Callable[[Mapping[str, Any]], Any]]),
    ],
)
WireCore.__doc__ = "What a capability's ``wire.shapes(core)`` is given: the wire's own helpers."


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else format_time(moment)


# --------------------------------------------------------------------------- to the wire


_JSON_SCALARS = (str, int, float, bool, type(None))


def _json_value(value: object) -> Any:
    """An attribute value (canonical JSON data, as the log holds it) on the wire: text,
    numbers, booleans and null as they are, lists item by item; anything else by
    :func:`to_wire`."""
    if type(value) in _JSON_SCALARS:
        return value
    if type(value) is list:
        return [_json_value(v) for v in value]
    return to_wire(value)


def _fact(f: Fact) -> Wire:
    out = _fact_fields(f)
    if f.warnings:  # a call's warning (pin past the soft anchor limit); never stored
        out["warnings"] = list(f.warnings)
    return out


def _fact_fields(f: Fact) -> Wire:
    return {
        "id": f.id,
        "path": f.path,
        "content": f.content,
        "kind": f.kind,
        "attributes": {str(k): _json_value(v) for k, v in f.attributes.items()},
        "owner": f.owner,
        "created_at": format_time(f.created_at),
        "last_recall_at": _time(f.last_recall_at),
        "recall_count": f.recall_count,
        "stability_days": f.stability_days,
        "confidence": f.confidence,
        "last_confirmed_at": _time(f.last_confirmed_at),
        "visibility": f.visibility,
        "pinned": f.pinned,
        "user_weight": f.user_weight,
        "lifetime": f.lifetime,
        "expires_at": _time(f.expires_at),
        "supersedes_id": f.supersedes_id,
        "superseded_by": f.superseded_by,
        "deleted_at": _time(f.deleted_at),
        "purged_at": _time(f.purged_at),
        "tags": [str(t) for t in f.tags],
        "state": f.state,
    }


_PARTS_ORDER = (
    "total",
    "method",
    "strength",
    "keyword",
    "bm25",
    "keyword_rank",
    "vector",
    "vector_scaled",
    "vector_rank",
    "neighbour",
    "temporal",
    "time_window",
    "diversity",
    "path",
    "entity",
    "entities",
    "rerank",
    "rerank_before",
    "strength_weight",
    "c",
    "c_eff",
    "stale",
    "pinned",
    "user_weight",
    "spine",
    "matched_terms",
)


def _parts(p: ScoreParts) -> Wire:
    raw = p.as_dict()
    out = {k: to_wire(raw[k]) for k in _PARTS_ORDER if k in raw}
    out.update((k, to_wire(v)) for k, v in raw.items() if k not in out)
    return out


def effective_tag(tag: Tag, source: str | None) -> Wire:
    return {"tag": str(tag), "key": tag.key, "value": tag.value, "source": source}


def _detail(d: FactDetail) -> Wire:
    return {
        "fact": _fact(d.fact),
        "strength": d.strength,
        "effective_tags": [effective_tag(t, s) for t, s in d.effective_tags],
        "links": list(d.links),
        "events": [_fields(e) for e in d.events],
        "confidence": d.confidence,
        "c_eff": d.c_eff,
        "stale": d.stale,
        "last_confirmed_at": _time(d.last_confirmed_at),
        "evidence": [
            {"type": ev.type.value, "value": ev.value, "note": ev.note} for ev in d.evidence
        ],
        "source": None if d.source is None else _source(d.source),
        "pinned": d.pinned,
        "user_weight": d.user_weight,
        "lifetime": d.lifetime,
        "expires_at": _time(d.expires_at),
        "expired": d.expired,
        "expired_because": d.expired_because,
        "as_of": _time(d.as_of),
    }


def _conflict(c: ConflictRecord) -> Wire:
    resolution = None
    if c.status == "resolved":
        resolution = {
            "outcome": c.outcome,
            "kept_id": c.kept_id,
            "archived": list(c.archived),
            "reason": c.reason,
            "by": c.resolved_by,
            "at": _time(c.resolved_at),
        }
    return {
        "id": c.id,
        "conflict_class": c.conflict_class,
        "status": c.status,
        "score": c.score,
        "findings": list(c.findings),
        "detected_by": c.detected_by,
        "suggested_keep": c.suggested_keep,
        "opened_at": _time(c.opened_at),
        "opened_by": c.opened_by,
        "opened_reason": c.opened_reason,
        "members": [_fact(f) for f in c.members],
        "resolution": resolution,
    }


def _source(p: Provenance) -> Wire:
    return {"subject": p.subject, "actor_kind": p.actor_kind.value, "label": p.label}


def _fields(obj: Any) -> Wire:
    """A dataclass as its fields in order (a hit, an event; a link, a graph: decision 0053;
    a result of the history protocol: decision 0064)."""
    return {f.name: to_wire(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


_SHAPES: Shapes = {  # the core's; those below and each capability's are added (0177)
    Fact: _fact,
    ScoreParts: _parts,
    FactDetail: _detail,
    ConflictRecord: _conflict,
    MemoryStatus: _fields,
}
_CORE_BY_FIELDS = (
    RecallHit,
    FactView,
    PathEntry,
    TreeNode,
    Event,
    DueFact,
    Link,
    LinkGraph,
    ProvenanceReport,
    DueMemory,
    ForgottenMemory,
)
"""The core's result types that go as their fields in order, and are read back so."""


def to_wire(obj: object) -> Any:
    """``obj`` as plain JSON values: a type of :data:`WIRE_TYPES` in its own shape; any
    other dataclass (``PurgeResult``, ``TokenInfo``, ``Rule`` …) or record (``Decision``)
    as its fields in order, an enum its value, a datetime ISO-8601 UTC, a tag ``"k=v"``,
    tuples and lists arrays, a set a sorted array.
    """
    if obj is None or isinstance(obj, bool | int | float):
        return obj
    shape = _SHAPES.get(type(obj))
    if shape is not None:
        return shape(obj)
    if isinstance(obj, enum.Enum):
        return to_wire(obj.value)
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, datetime):
        return format_time(obj)
    if isinstance(obj, Tag):
        return str(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return _fields(obj)
    names = record_fields(obj)  # a record (decision 0050): as a dataclass
    if names is not None:
        return {n: to_wire(getattr(obj, n)) for n in names}
    if isinstance(obj, Mapping):
        return {str(k): to_wire(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        items = sorted(obj, key=repr) if isinstance(obj, set | frozenset) else obj
        return [to_wire(v) for v in items]
    return str(obj)  # a path (``PurePath``) too: its text, with no pathlib imported here


def dumps(obj: object) -> bytes:
    """``obj`` on the wire as compact UTF-8 JSON (what the REST API sends)."""
    import json

    text = json.dumps(to_wire(obj), ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8")


# --------------------------------------------------------------------------- from the wire


def time_of(value: Any) -> datetime:
    return parse_time(str(value))


def _opt(convert: Callable[[Any], _T], value: Any) -> _T | None:
    return None if value is None else convert(value)


def _tag(text: Any) -> Tag:
    key, sep, value = str(text).partition("=")
    if not sep:
        raise ValueError(f"{text!r} is not a tag")
    return Tag(key, value)


def _read_fact(d: Mapping[str, Any]) -> Fact:
    return Fact(
        id=str(d["id"]),
        path=str(d["path"]),
        content=str(d["content"]),
        kind=str(d["kind"]),
        owner=str(d["owner"]),
        created_at=time_of(d["created_at"]),
        last_recall_at=_opt(time_of, d.get("last_recall_at")),
        recall_count=int(d["recall_count"]),
        stability_days=float(d["stability_days"]),
        supersedes_id=d.get("supersedes_id"),
        superseded_by=d.get("superseded_by"),
        deleted_at=_opt(time_of, d.get("deleted_at")),
        purged_at=_opt(time_of, d.get("purged_at")),
        tags=tuple(_tag(t) for t in d.get("tags", ())),
        successor_hidden=d.get("state") == "superseded" and d.get("superseded_by") is None,
        attributes=dict(d.get("attributes") or {}),
        confidence=_opt(float, d.get("confidence")),
        last_confirmed_at=_opt(time_of, d.get("last_confirmed_at")),
        visibility=str(d.get("visibility") or "shared"),
        pinned=bool(d.get("pinned", False)),
        user_weight=_opt(float, d.get("user_weight")),
        lifetime=str(d.get("lifetime") or "standard"),
        expires_at=_opt(time_of, d.get("expires_at")),
        warnings=tuple(str(w) for w in d.get("warnings") or ()),
    )


def _read_detail(d: Mapping[str, Any]) -> FactDetail:
    return FactDetail(
        fact=_read_fact(d["fact"]),
        strength=float(d["strength"]),
        effective_tags=tuple(
            (Tag(str(t["key"]), str(t["value"])), t.get("source")) for t in d["effective_tags"]
        ),
        links=tuple(str(link) for link in d.get("links", ())),
        events=tuple(_read_fields(Event, e) for e in d.get("events", ())),
        confidence=_opt(float, d.get("confidence")),
        c_eff=_opt(float, d.get("c_eff")),
        stale=bool(d.get("stale", False)),
        last_confirmed_at=_opt(time_of, d.get("last_confirmed_at")),
        evidence=tuple(
            EvidenceRef(str(ev["type"]), str(ev["value"]), ev.get("note"))  # type: ignore[arg-type]
            for ev in d.get("evidence", ())
        ),
        source=_read_source(d.get("source")),
        pinned=bool(d.get("pinned", False)),
        user_weight=_opt(float, d.get("user_weight")),
        lifetime=str(d.get("lifetime") or "standard"),
        expires_at=_opt(time_of, d.get("expires_at")),
        expired=bool(d.get("expired", False)),
        expired_because=d.get("expired_because"),
        as_of=_opt(time_of, d.get("as_of")),
    )


def _read_conflict(d: Mapping[str, Any]) -> ConflictRecord:
    r = d.get("resolution") or {}
    return ConflictRecord(
        id=str(d["id"]),
        conflict_class=str(d["conflict_class"]),
        status=str(d["status"]),
        members=tuple(_read_fact(f) for f in d["members"]),
        findings=tuple(str(x) for x in d["findings"]),
        score=float(d["score"]),
        detected_by=str(d["detected_by"]),
        suggested_keep=d.get("suggested_keep"),
        opened_at=_opt(time_of, d.get("opened_at")),
        opened_by=str(d["opened_by"]),
        outcome=r.get("outcome"),
        kept_id=r.get("kept_id"),
        archived=tuple(str(x) for x in r.get("archived", ())),
        resolved_at=_opt(time_of, r.get("at")),
        resolved_by=r.get("by"),
        reason=r.get("reason"),
        opened_reason=d.get("opened_reason"),
    )


def _read_source(d: Any) -> Provenance | None:
    if not isinstance(d, Mapping):
        return None
    return Provenance(str(d["subject"]), d["actor_kind"], d.get("label"))


def _read_status(d: Mapping[str, Any]) -> MemoryStatus:
    return MemoryStatus(
        _read_fact(d["fact"]),
        str(d["stage"]),
        str(d["tier"]),
        bool(d["sensitive"]),
        tuple(str(s) for s in d.get("screened") or ()),
        _opt(time_of, d.get("captured_at")),
        _opt(time_of, d.get("reviewed_at")),
        d.get("session"),
        tuple(str(w) for w in d.get("warnings") or ()),
        d.get("frame"),
        tuple(str(s) for s in d.get("canon") or ()),
        _opt(time_of, d.get("event_at")),
        _opt(int, d.get("session_position")),
        d.get("origin"),
        bool(d.get("unpinned", False)),
        material_type=str(d.get("material_type") or "unspecified"),
        origin_id=d.get("origin_id"),
        capture_context=d.get("capture_context"),
    )


def _read_fields(kind: Any, d: Mapping[str, Any]) -> Any:
    """A dataclass read back from its fields (what :func:`_fields` made), each by its
    annotated type (:func:`_reader_of`); a field the shape leaves out takes its default."""
    readers = _FIELD_READERS.get(kind)
    if readers is None:  # made at the first read: the annotations are resolved then
        from typing import get_type_hints  # reading only (the remote client)

        hints = get_type_hints(kind)
        readers = tuple((f.name, _reader_of(hints[f.name])) for f in dataclasses.fields(kind))
        _FIELD_READERS[kind] = readers
    return kind(**{name: read(d[name]) for name, read in readers if name in d})


_FIELD_READERS: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}
"""A dataclass read by its fields: how each field is read back, in order."""


def _reader_of(hint: Any) -> Callable[[Any], Any]:
    """How a value of the annotated type ``hint`` is read back: by the reader of its type
    where it has one; a time parsed; text, a number or a boolean converted; null or a
    value; a tuple item by item; a mapping copied; another dataclass by its fields;
    anything else as it came."""
    own = _READERS.get(hint)
    if own is not None:
        return own
    if hint is datetime:
        return time_of
    if hint in (str, int, float, bool):
        return cast(Callable[[Any], Any], hint)
    from typing import get_args, get_origin  # reading only (the remote client)

    args = get_args(hint)
    if type(None) in args:
        (inner,) = (a for a in args if a is not type(None))
        read = _reader_of(inner)
        return lambda value: _opt(read, value)
    origin = get_origin(hint)
    if origin is tuple:
        item = _reader_of(args[0])
        return lambda value: tuple(item(v) for v in value)
    if origin in (dict, Mapping):
        return dict
    if dataclasses.is_dataclass(hint):
        return lambda value: _read_fields(hint, value)
    return lambda value: value


def _by_fields(*kinds: type) -> tuple[Shapes, Readers]:
    """The shapes and readers of result types that go as their fields in order."""
    return dict.fromkeys(kinds, _fields), {kind: _reading(kind) for kind in kinds}


def _reading(kind: type) -> Callable[[Mapping[str, Any]], Any]:
    """The reader of a dataclass read back by its fields."""
    return lambda d: _read_fields(kind, d)


_READERS: Readers = {  # the core's; each capability's are added below
    Fact: _read_fact,
    ScoreParts: _reading(ScoreParts),
    FactDetail: _read_detail,
    ConflictRecord: _read_conflict,
    MemoryStatus: _read_status,
}


def by_own_shape(kind: type) -> bool:
    """Whether ``kind`` goes on the wire by a shape of its own, not as its fields in order."""
    shape = _SHAPES.get(kind)
    return shape is not None and shape is not _fields


def from_wire(kind: type[_T], data: Any) -> _T:
    """The ``kind`` object that ``to_wire`` made ``data`` from.

    Raises ``KeyError``, ``TypeError`` or ``ValueError`` on data of another shape.
    """
    reader = _READERS.get(kind)
    if reader is None:
        raise TypeError(f"{kind.__name__} has no wire reader")
    if not isinstance(data, Mapping):
        raise TypeError(f"a {kind.__name__} on the wire is an object, not {type(data).__name__}")
    return cast(_T, reader(data))


def _splice() -> tuple[type, ...]:
    """Add the core's types that go as their fields, and each capability folder's shapes
    and readers (its ``wire.shapes(core)``), to the core's; a type given a shape twice is a
    mistake, refused. Answers the types shaped."""
    core = WireCore(_by_fields, _reading)
    parts = [(__name__, _by_fields(*_CORE_BY_FIELDS))]
    parts += [(m.__name__, m.shapes(core)) for m in capabilities.modules("wire")]
    for name, (shapes, readers) in parts:
        for table, more in ((_SHAPES, shapes), (_READERS, readers)):
            twice = table.keys() & more.keys()
            if twice:
                raise TypeError(f"{name} shapes {sorted(t.__name__ for t in twice)} again")
            table.update(more)
    return tuple(_SHAPES)


WIRE_TYPES: tuple[type, ...] = _splice()
"""The result types with a shape of their own (the rest: dataclass fields in order)."""
