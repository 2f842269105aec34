"""The kind registry: (kind, schema version, schema, upcasters), the mirror of the events'.

As the event registry does, it holds each kind with its schema version, attributes dataclass
and upcasters; old attribute payloads are upcast on read, as events are; a kind is fixed at
creation (docs/model.md, Fact and path; decision 0030).

Every payload the registry hands back is canonical JSON data (see
:meth:`KindSchema.to_payload`): what the log stores, what the projection indexes. The
default kind is ``fact`` (``embornal.domain.facts.fact.DEFAULT_KIND``); see
:class:`FactAttributes` for how untyped facts get their ``statement``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from embornal.domain.kinds.fields import FieldSpec, FieldType
from embornal.domain.kinds.schemas import V1_SCHEMAS, KindSchema
from embornal.errors import InvalidAttribute, InvalidKind

__all__ = ["KINDS", "KindEntry", "KindRegistry", "Upcaster", "default_registry"]

Payload = dict[str, object]
Upcaster = Callable[[Payload], Payload]

_KIND_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True)
class KindEntry:
    """One registered kind: its latest schema and the chain that brings old payloads to it."""

    kind: str
    version: int
    schema: type[KindSchema]
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)

    @property
    def fields(self) -> tuple[FieldSpec, ...]:
        return self.schema.fields()

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def spec(self, name: object) -> FieldSpec:
        for f in self.fields:
            if f.name == name:
                return f
        shown = name[:40] if isinstance(name, str) else name
        raise InvalidAttribute(
            f"{self.kind} has no attribute {shown!r}; its attributes are: "
            f"{', '.join(self.field_names)}"
        )


class KindRegistry:
    """The kinds a memory knows, each at its latest schema version."""

    def __init__(self) -> None:
        self._entries: dict[str, KindEntry] = {}

    # -- registration ------------------------------------------------------------------

    def register(
        self,
        kind: str,
        version: int,
        schema: type[KindSchema],
        upcasters: Mapping[int, Upcaster] | None = None,
    ) -> KindEntry:
        """Register ``kind`` at ``version``; ``upcasters[n]`` takes a payload from n to n+1.

        The chain must be whole: one upcaster for each of 1 .. version-1. A kind is
        registered once (a programming error otherwise, so :class:`ValueError`).
        """
        chain = dict(upcasters or {})
        if not _KIND_NAME.match(kind):
            raise ValueError(f"kind name {kind!r} is not a lowercase identifier")
        if kind in self._entries:
            raise ValueError(f"kind {kind!r} is already registered")
        if not isinstance(version, int) or version < 1:
            raise ValueError(f"schema version {version!r} of {kind!r} is not a positive int")
        if kind != schema.KIND:
            raise ValueError(f"schema {schema.__name__} is for kind {schema.KIND!r}, not {kind!r}")
        if set(chain) != set(range(1, version)):
            raise ValueError(f"{kind!r} v{version} needs upcasters for 1..{version - 1}")
        schema.fields()  # every annotation must be a supported attribute type
        entry = KindEntry(kind, version, schema, MappingProxyType(chain))
        self._entries[kind] = entry
        return entry

    # -- lookup ------------------------------------------------------------------------

    def kinds(self) -> tuple[str, ...]:
        """The registered kinds, in registration order."""
        return tuple(self._entries)

    def __contains__(self, kind: object) -> bool:
        return kind in self._entries

    def check_kind(self, kind: object) -> str:
        """The registered kind named ``kind`` (trimmed, lowercase), or :class:`InvalidKind`."""
        allowed = ", ".join(self._entries)
        if not isinstance(kind, str):
            raise InvalidKind(f"a kind must be a name, one of: {allowed}")
        name = kind.strip().lower()
        if name not in self._entries:
            raise InvalidKind(
                f"unknown kind {kind[:40]!r}; the kinds are: {allowed}",
                hint=f"Use one of: {allowed}.",
            )
        return name

    def entry(self, kind: object) -> KindEntry:
        return self._entries[self.check_kind(kind)]

    def latest(self, kind: str) -> int | None:
        """The latest schema version of the registered ``kind`` as named (None: not one);
        for hot read paths, with no normalization of the name."""
        entry = self._entries.get(kind)
        return entry.version if entry is not None else None

    def version(self, kind: object) -> int:
        """The latest schema version of ``kind``."""
        return self.entry(kind).version

    def check_same_kind(self, current: str, requested: object) -> str:
        """``kind`` is immutable: ``requested`` must be the kind ``current`` already has."""
        name = self.check_kind(requested)
        if name != current:
            raise InvalidKind(
                f"the kind of a memory never changes ({current} cannot become {name})",
                hint="Store a new memory of the right kind that supersedes this one.",
            )
        return name

    # -- validation ---------------------------------------------------------------------

    def parse(self, kind: object, attributes: object) -> KindSchema:
        """The schema instance for ``attributes`` (JSON-shaped data), or an
        :class:`InvalidAttribute` naming the field and what it allows."""
        entry = self.entry(kind)
        if not isinstance(attributes, Mapping):
            raise InvalidAttribute(
                f"the attributes of a {entry.kind} must be an object of name: value",
                hint=f"Its attributes are: {', '.join(entry.field_names)}.",
            )
        for name in attributes:
            entry.spec(name)
        missing = [f.name for f in entry.fields if f.required and attributes.get(f.name) is None]
        if missing:
            needs = ", ".join(f.name for f in entry.fields if f.required)
            raise InvalidAttribute(
                f"{entry.kind}.{missing[0]} is required (a {entry.kind} needs: {needs})"
            )
        values = {str(k): v for k, v in attributes.items() if v is not None}
        return entry.schema(**values)

    def validate(self, kind: object, attributes: Mapping[str, object]) -> Payload:
        """The canonical payload of ``attributes`` for ``kind``: vocabulary values as text,
        dates ``YYYY-MM-DD``, times ISO-8601 UTC, lists; absent fields left out."""
        return self.parse(kind, attributes).to_payload()

    def update(
        self, kind: object, current: Mapping[str, object], changes: Mapping[str, object]
    ) -> Payload:
        """A sparse attribute change (``MemoryAttributesUpdated``): ``changes`` over
        ``current``, where ``None`` removes an optional field; the result is validated whole.
        A required field cannot be removed."""
        entry = self.entry(kind)
        if not isinstance(changes, Mapping) or not changes:
            raise InvalidAttribute(
                f"give at least one attribute of the {entry.kind} to change",
                hint=f"Its attributes are: {', '.join(entry.field_names)}.",
            )
        merged: dict[str, object] = dict(current)
        for name, value in changes.items():
            spec = entry.spec(name)
            if value is None:
                if spec.required:
                    raise InvalidAttribute(
                        f"{spec.label} is required and cannot be removed",
                        hint="Give it a new value instead.",
                    )
                merged.pop(spec.name, None)
            else:
                merged[spec.name] = value
        return self.validate(entry.kind, merged)

    def coerce_from_text(self, kind: object, values: Mapping[str, str]) -> dict[str, object]:
        """Turn ``--attr k=v`` text into field types before :meth:`validate`/:meth:`update`:
        ``true``/``false`` (also yes/no, on/off, 1/0), numbers, ``a,b`` lists; an empty text
        gives ``None`` (no value: leave out, or remove in an update)."""
        entry = self.entry(kind)
        out: dict[str, object] = {}
        for name, raw in values.items():
            spec = entry.spec(name)
            if not isinstance(raw, str):
                raise InvalidAttribute(f"{spec.label} must be given as text here")
            text = raw.strip()
            if not text:
                out[spec.name] = None
            elif spec.value_type is FieldType.BOOL:
                folded = text.lower()
                if folded not in _TRUE | _FALSE:
                    raise InvalidAttribute(f"{spec.label} must be true or false, not {text[:40]!r}")
                out[spec.name] = folded in _TRUE
            elif spec.value_type is FieldType.NUMBER:
                try:
                    out[spec.name] = float(text)
                except ValueError:
                    raise InvalidAttribute(
                        f"{spec.label} {text[:40]!r} is not a number",
                        hint=_bounds_hint(spec),
                    ) from None
            elif spec.value_type is FieldType.TEXT_LIST:
                out[spec.name] = tuple(p.strip() for p in text.split(",") if p.strip())
            else:
                out[spec.name] = raw
        return out

    # -- versions -----------------------------------------------------------------------

    def upcast(
        self, kind: object, version: int, payload: Mapping[str, object]
    ) -> tuple[int, Payload]:
        """Bring a stored payload from ``version`` up to the latest: ``(latest, payload)``.

        The log is never rewritten; this runs on read. The result is not validated here
        (:meth:`load` does both)."""
        entry = self.entry(kind)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise InvalidAttribute(f"{entry.kind} schema version {version!r} is not 1 or more")
        if version > entry.version:
            raise InvalidAttribute(
                f"{entry.kind} schema version {version} is newer than this embornal knows "
                f"({entry.version})",
                hint="Upgrade embornal to read this memory.",
            )
        out = dict(payload)
        while version < entry.version:
            out = dict(entry.upcasters[version](out))
            version += 1
        return version, out

    def load(self, kind: object, version: int, payload: Mapping[str, object]) -> KindSchema:
        """A stored payload, upcast and parsed."""
        _, latest = self.upcast(kind, version, payload)
        return self.parse(kind, latest)

    # -- description --------------------------------------------------------------------

    def describe(self) -> list[dict[str, object]]:
        """Every kind as JSON-able data: version, summary, fields (type, required,
        vocabulary values, bounds) and cross-field rules."""
        out: list[dict[str, object]] = []
        for entry in self._entries.values():
            doc = (entry.schema.__doc__ or "").strip()
            out.append(
                {
                    "kind": entry.kind,
                    "version": entry.version,
                    "summary": " ".join(doc.split("\n\n")[0].split()),
                    "fields": [f.describe() for f in entry.fields],
                    "required": [f.name for f in entry.fields if f.required],
                    "rules": list(entry.schema.RULES),
                }
            )
        return out


def _bounds_hint(spec: FieldSpec) -> str:
    if spec.minimum is not None and spec.maximum is not None:
        return f"Give a number from {spec.minimum:g} to {spec.maximum:g}."
    return "Give a number."


def default_registry() -> KindRegistry:
    """A registry of the twelve kinds of v1 (docs/model.md, Fact and path), each at version 1."""
    registry = KindRegistry()
    for schema in V1_SCHEMAS:
        registry.register(schema.KIND, 1, schema)
    return registry


KINDS = default_registry()
