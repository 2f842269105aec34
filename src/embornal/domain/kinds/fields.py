"""The attribute fields of kind schemas: what each may hold, checked one value at a time.

A schema is a frozen dataclass; its field annotations give the type (``str``, ``float``,
``bool``, ``tuple[str, ...]``, ``date``, ``datetime`` or a vocabulary ``StrEnum``, each
optional as ``X | None``) and the metadata set by :func:`meta` gives the rest (bounds, a text
format, multi-line or not). A field with no default is required.

Values arrive as JSON-shaped data (text, numbers, booleans, lists). :func:`convert` turns
one into the field's Python value or raises :class:`InvalidAttribute` naming the kind, the
field and what is allowed; :func:`to_json` gives the canonical JSON value back (vocabulary
values as text, dates ``YYYY-MM-DD``, times ``2026-11-30T14:00:00.000000Z``, lists).
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from dataclasses import dataclass
from datetime import date, datetime
from enum import Enum, StrEnum
from typing import Any

from embornal.domain.clock import format_time, parse_time
from embornal.domain.ids import ID_LENGTH
from embornal.domain.kinds.vocab import allowed_values
from embornal.domain.uris import uri_problem
from embornal.errors import InvalidAttribute, InvalidTime

__all__ = [
    "MAX_LIST_ITEMS",
    "MAX_LIST_ITEM_LENGTH",
    "MAX_TEXT_LENGTH",
    "FieldSpec",
    "FieldType",
    "TextFormat",
    "convert",
    "field_specs",
    "meta",
    "to_json",
]

MAX_TEXT_LENGTH = 4_000
MAX_LIST_ITEMS = 100
MAX_LIST_ITEM_LENGTH = 256
_FACT_ID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


class FieldType(StrEnum):
    TEXT = "text"
    NUMBER = "number"
    BOOL = "bool"
    TEXT_LIST = "text_list"
    DATE = "date"
    DATETIME = "datetime"
    VOCABULARY = "vocabulary"


class TextFormat(StrEnum):
    PLAIN = "plain"
    FACT_ID = "fact_id"
    URI = "uri"


@dataclass(frozen=True)
class FieldSpec:
    """One attribute of one kind, as data."""

    kind: str
    name: str
    value_type: FieldType
    required: bool
    vocabulary: type[StrEnum] | None = None
    minimum: float | None = None
    maximum: float | None = None
    format: TextFormat = TextFormat.PLAIN
    multiline: bool = False
    max_length: int = MAX_TEXT_LENGTH

    @property
    def label(self) -> str:
        return f"{self.kind}.{self.name}"

    def describe(self) -> dict[str, object]:
        """The field as JSON-able data (for ``embornal memory kinds``)."""
        out: dict[str, object] = {
            "name": self.name,
            "type": self.value_type.value,
            "required": self.required,
        }
        if self.vocabulary is not None:
            out["values"] = [m.value for m in self.vocabulary]
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.value_type is FieldType.TEXT:
            out["format"] = self.format.value
            out["multiline"] = self.multiline
        if self.value_type in (FieldType.TEXT, FieldType.TEXT_LIST):
            out["max_length"] = self.max_length
        return out


def meta(
    *,
    fmt: TextFormat = TextFormat.PLAIN,
    multiline: bool = False,
    max_length: int | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
) -> dict[str, object]:
    """The metadata of one schema field: ``field(metadata=meta(...))``; with no default the
    field is required, with ``default=None`` (``()`` for a list) it is optional."""
    return {
        "minimum": minimum,
        "maximum": maximum,
        "format": fmt,
        "multiline": multiline,
        "max_length": max_length,
    }


def _type_of(hint: object) -> tuple[FieldType, type[StrEnum] | None]:
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"unsupported attribute type {hint!r}")
        hint = args[0]
    if typing.get_origin(hint) is tuple and typing.get_args(hint) == (str, ...):
        return FieldType.TEXT_LIST, None
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return FieldType.VOCABULARY, hint
    simple = {
        str: FieldType.TEXT,
        float: FieldType.NUMBER,
        bool: FieldType.BOOL,
        datetime: FieldType.DATETIME,
        date: FieldType.DATE,
    }
    if isinstance(hint, type) and hint in simple:
        return simple[hint], None
    raise TypeError(f"unsupported attribute type {hint!r}")


_SPECS: dict[tuple[type[Any], str], tuple[FieldSpec, ...]] = {}


def field_specs(schema: type[Any], kind: str) -> tuple[FieldSpec, ...]:
    """The fields of a schema dataclass, in declaration order (read once, then kept)."""
    known = _SPECS.get((schema, kind))
    if known is not None:
        return known
    hints = typing.get_type_hints(schema)
    out = []
    for f in dataclasses.fields(schema):
        ftype, vocabulary = _type_of(hints[f.name])
        info = f.metadata
        max_length = info.get("max_length")
        if max_length is None:
            max_length = MAX_LIST_ITEM_LENGTH if ftype is FieldType.TEXT_LIST else MAX_TEXT_LENGTH
        out.append(
            FieldSpec(
                kind=kind,
                name=f.name,
                value_type=ftype,
                required=f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING,
                vocabulary=vocabulary,
                minimum=info.get("minimum"),
                maximum=info.get("maximum"),
                format=info.get("format", TextFormat.PLAIN),
                multiline=bool(info.get("multiline", False)),
                max_length=int(max_length),
            )
        )
    _SPECS[(schema, kind)] = specs = tuple(out)
    return specs


def _fail(spec: FieldSpec, problem: str, hint: str | None = None) -> InvalidAttribute:
    return InvalidAttribute(f"{spec.label} {problem}", hint=hint)


def _text(spec: FieldSpec, raw: object, *, limit: int, multiline: bool) -> str:
    if not isinstance(raw, str):
        raise _fail(spec, f"must be text, not {type(raw).__name__}")
    value = raw.strip()
    if not value:
        raise _fail(spec, "is empty", hint="Leave the attribute out (or null) to have none.")
    if len(value) > limit:
        raise _fail(spec, f"is over {limit:,} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _fail(spec, "is not valid Unicode text") from e
    allowed = "\n\t" if multiline else ""
    if any(not ch.isprintable() and ch not in allowed for ch in value):
        what = "a control character" if multiline else "a line break or a control character"
        raise _fail(spec, f"holds {what}")
    return value


def _formatted(spec: FieldSpec, value: str) -> str:
    if spec.format is TextFormat.FACT_ID:
        upper = value.upper()
        if not _FACT_ID.match(upper):
            raise _fail(
                spec,
                f"{value[:40]!r} is not a fact id",
                hint=f"A fact id is {ID_LENGTH} characters of 0-9 and A-Z (no I, L, O, U).",
            )
        return upper
    if spec.format is TextFormat.URI:
        problem = uri_problem(value)
        if problem is not None:
            raise _fail(spec, f"{value[:60]!r} {problem}", hint="For example https://example.org")
    return value


def _number(spec: FieldSpec, raw: object) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise _fail(spec, f"must be a number, not {type(raw).__name__}")
    value = float(raw)
    lo, hi = spec.minimum, spec.maximum
    if (
        not math.isfinite(value)
        or (lo is not None and value < lo)
        or (hi is not None and value > hi)
    ):
        bounds = f"from {lo:g} to {hi:g}" if lo is not None and hi is not None else "finite"
        raise _fail(spec, f"is {raw!r}; it must be a number {bounds}")
    return value


def _vocabulary(spec: FieldSpec, raw: object) -> StrEnum:
    assert spec.vocabulary is not None
    allowed = allowed_values(spec.vocabulary)
    if isinstance(raw, spec.vocabulary):
        return raw
    if not isinstance(raw, str) or isinstance(raw, Enum):
        raise _fail(spec, f"must be one of: {allowed}")
    try:
        return spec.vocabulary(raw.strip().lower())
    except ValueError:
        raise _fail(
            spec, f"{raw[:40]!r} is not one of: {allowed}", hint=f"Use one of: {allowed}."
        ) from None


def _date(spec: FieldSpec, raw: object) -> date:
    if isinstance(raw, datetime):
        raise _fail(spec, "must be a date, not a time", hint="For example 2027-01-31.")
    if isinstance(raw, date):
        return raw
    if isinstance(raw, str):
        try:
            return date.fromisoformat(raw.strip())
        except ValueError:
            pass
    raise _fail(spec, f"{str(raw)[:40]!r} is not a date", hint="For example 2027-01-31.")


def _datetime(spec: FieldSpec, raw: object) -> datetime:
    if isinstance(raw, datetime | str):
        try:
            return parse_time(raw)
        except InvalidTime as e:
            raise _fail(spec, f"{str(raw)[:40]!r} is not an ISO-8601 time", e.hint) from e
    raise _fail(
        spec, f"must be an ISO-8601 time, not {type(raw).__name__}", InvalidTime.default_hint
    )


def _text_list(spec: FieldSpec, raw: object) -> tuple[str, ...]:
    if isinstance(raw, str) or not isinstance(raw, list | tuple):
        raise _fail(spec, 'must be a list of text, e.g. ["Al", "Ally"]')
    if len(raw) > MAX_LIST_ITEMS:
        raise _fail(spec, f"holds {len(raw)} items; at most {MAX_LIST_ITEMS} are allowed")
    out: dict[str, None] = {}
    for item in raw:
        out.setdefault(_text(spec, item, limit=spec.max_length, multiline=False), None)
    return tuple(out)


def convert(spec: FieldSpec, raw: object) -> object:
    """The Python value of ``raw`` for this field (``raw`` is not ``None``)."""
    match spec.value_type:
        case FieldType.TEXT:
            text = _text(spec, raw, limit=spec.max_length, multiline=spec.multiline)
            return _formatted(spec, text)
        case FieldType.NUMBER:
            return _number(spec, raw)
        case FieldType.BOOL:
            if not isinstance(raw, bool):
                raise _fail(spec, f"must be true or false, not {str(raw)[:40]!r}")
            return raw
        case FieldType.TEXT_LIST:
            return _text_list(spec, raw)
        case FieldType.DATE:
            return _date(spec, raw)
        case FieldType.DATETIME:
            return _datetime(spec, raw)
        case FieldType.VOCABULARY:
            return _vocabulary(spec, raw)
    raise AssertionError(spec.value_type)  # pragma: no cover


def to_json(value: object) -> object:
    """The canonical JSON value of a converted attribute value."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value
