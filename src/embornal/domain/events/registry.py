"""The event mapper: typed body ⇄ stored ``(type, schema_version, payload)``.

``to_payload`` gives the JSON object the log stores for a body; ``from_stored`` upcasts a
stored payload along its class's chain (v1→v2→…) and decodes it. An unknown type, a
version newer than the class, a missing upcaster or a payload that does not decode is an
:class:`~embornal.errors.UnreadableEvent`. ``redact_payload`` erases what a class declares
as user text; nothing else knows which keys hold text. ``named_facts`` and ``hide_facts``
read and mask the ids a class declares as naming facts (decision 0130).

``decode(..., strict=True)`` (an imported log) also checks that each value has the JSON
type its field declares (text for ``str``, a whole number in 64 bits for ``int``, ``true``
or ``false`` for ``bool``, a list of texts for ``tuple[str, ...]``…) instead of
converting it, and that text holds no NUL and no lone surrogate.
"""

from __future__ import annotations

import json
import math
import sys
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import MISSING, fields
from datetime import datetime

from embornal.domain.clock import format_time, parse_time
from embornal.domain.events.base import HIDDEN_ID, REDACTED_KEY, DomainEvent, Payload
from embornal.domain.events.recalled import FactsRecalled
from embornal.domain.facts.tags import OWNER_KEY, Tag
from embornal.errors import EmbornalError, UnreadableEvent
from embornal.hints import Any

__all__ = ["EVENTS", "EventRegistry", "field_types", "from_stored", "to_payload"]

_Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # (encode, decode)
_INT_RANGE = range(-(2**63), 2**63)  # what the databases store in an integer column


def _same(value: Any) -> Any:
    return value


def _tags_out(value: tuple[Tag, ...]) -> list[list[str]]:
    return [[t.key, t.value] for t in value]


def _tags_in(value: Any) -> tuple[Tag, ...]:
    return tuple(Tag(str(k), str(v)) for k, v in value)


def _time_out(value: datetime) -> str:
    return format_time(value)


def _is_text(value: Any) -> bool:
    """Text a database stores as it is: no NUL, no lone surrogate."""
    if not isinstance(value, str) or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_int(value: Any) -> bool:
    return type(value) is int and value in _INT_RANGE


def _is_float(value: Any) -> bool:
    return (type(value) is float and math.isfinite(value)) or _is_int(value)


def _is_texts(value: Any) -> bool:
    return type(value) is list and all(_is_text(v) for v in value)


def _is_tags(value: Any) -> bool:
    return type(value) is list and all(
        type(t) is list and len(t) == 2 and _is_texts(t) for t in value
    )


def _is_json(value: Any, depth: int = 0) -> bool:
    """A JSON value of text, numbers, booleans, null, lists and objects (64 deep at most)."""
    if value is None or type(value) is bool or _is_float(value) or _is_text(value):
        return True
    if depth >= _MAX_DEPTH:
        return False
    if type(value) is list:
        return all(_is_json(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(_is_text(k) and _is_json(v, depth + 1) for k, v in value.items())
    return False


_MAX_DEPTH = 64
#: What ``decode(..., strict=True)`` asks of each stored value, by the field's type.
_CHECKS: dict[Any, tuple[Callable[[Any], bool], str]] = {
    str: (_is_text, "text (no NUL, no lone surrogate)"),
    int: (_is_int, "a whole number of 64 bits"),
    float: (_is_float, "a finite number"),
    bool: (lambda v: type(v) is bool, "true or false"),
    datetime: (_is_text, "an ISO-8601 time"),
    tuple[Tag, ...]: (_is_tags, "a list of [key, value] texts"),
    tuple[str, ...]: (_is_texts, "a list of texts"),
    Mapping[str, Any]: (lambda v: type(v) is dict and _is_json(v), "a JSON object"),
}

_CODECS: dict[Any, _Codec] = {
    str: (_same, str),
    int: (_same, int),
    float: (_same, float),
    bool: (_same, bool),
    datetime: (_time_out, parse_time),
    tuple[Tag, ...]: (_tags_out, _tags_in),
    tuple[str, ...]: (list, lambda v: tuple(str(x) for x in v)),
    Mapping[str, Any]: (dict, dict),
}


def _optional(hint: Any) -> tuple[Any, bool]:
    """``(inner type, whether None is allowed)`` of a field's type."""
    if isinstance(hint, types.UnionType):
        every = hint.__args__
    elif type(hint).__module__ == "typing":  # Optional[X], Union[X, None]: typing is imported
        import typing

        if typing.get_origin(hint) is not typing.Union:
            return hint, False
        every = typing.get_args(hint)
    else:
        return hint, False
    args = [a for a in every if a is not type(None)]
    if len(args) == 1 and len(every) == 2:
        return args[0], True
    return hint, False


class _Field:
    """One field's codec (a plain class: making a dataclass costs start-up time)."""

    __slots__ = ("check", "decode", "default", "encode", "expected", "is_tags", "name", "nullable")

    def __init__(
        self,
        name: str,
        encode: Callable[[Any], Any],
        decode: Callable[[Any], Any],
        nullable: bool,
        default: Any,  # MISSING: required
        is_tags: bool,
        check: tuple[Callable[[Any], bool], str],
    ) -> None:
        self.check, self.expected = check
        self.name = name
        self.encode = encode
        self.decode = decode
        self.nullable = nullable
        self.default = default
        self.is_tags = is_tags


class _Entry:
    """A body class and its fields' codecs."""

    __slots__ = ("cls", "fields", "out")

    def __init__(self, cls: type[DomainEvent], fields: tuple[_Field, ...]) -> None:
        self.cls = cls
        self.fields = fields
        #: What :meth:`EventRegistry.to_payload` does with each field: its name, its
        #: encoder (None: the value as it is) and whether a None is left out.
        self.out = tuple(
            (f.name, None if f.encode is _same else f.encode, f.name in cls.OMIT_IF_NONE)
            for f in fields
        )


def field_types(cls: type[DomainEvent]) -> dict[str, Any]:
    """The type of each field of ``cls``, as :func:`typing.get_type_hints` gives it: its
    annotation's text evaluated in the namespace of the class's module. Only the fields:
    ``get_type_hints`` also resolves every ``ClassVar`` of the class and its bases, through
    ``typing``'s ``compile`` of each text, and the first compile of a process makes the
    interpreter's syntax-tree classes (a recall's one write would pay for them)."""
    namespace = vars(sys.modules[cls.__module__])
    return {
        f.name: eval(f.type, namespace) if isinstance(f.type, str) else f.type for f in fields(cls)
    }


def _entry(cls: type[DomainEvent]) -> _Entry:
    """Check a body class's declarations and build its codec (TypeError: a bug in it)."""
    name = cls.__name__
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__dataclass_fields__" not in cls.__dict__:
        raise TypeError(f"{name} must be a frozen dataclass")
    if not cls.TYPE or not isinstance(cls.VERSION, int) or cls.VERSION < 1:
        raise TypeError(f"{name} needs a TYPE and a VERSION of 1 or more")
    missing = [n for n in range(1, cls.VERSION) if n not in cls.UPCASTERS]
    if missing:
        raise TypeError(f"{name} v{cls.VERSION} lacks upcasters from versions {missing}")
    names = [f.name for f in fields(cls)]
    text, plain = set(cls.TEXT_FIELDS), set(cls.PLAIN_FIELDS)
    if text & plain:
        raise TypeError(f"{name}: {sorted(text & plain)} declared both text and plain")
    undeclared = [n for n in names if n not in text | plain]
    if undeclared:
        raise TypeError(
            f"{name}: declare {undeclared} in TEXT_FIELDS (user text, erased by a purge) "
            "or in PLAIN_FIELDS"
        )
    unknown = sorted((text | plain | set(cls.OMIT_IF_NONE)) - set(names))
    if unknown:
        raise TypeError(f"{name} declares {unknown}, which are not its fields")
    hints = field_types(cls)
    for n in cls.FACT_ID_FIELDS:
        if n not in plain or _optional(hints[n])[0] not in (str, tuple[str, ...]):
            raise TypeError(f"{name}.{n} names facts: a plain field of ids (str or tuple)")
    out = []
    for f in fields(cls):
        inner, nullable = _optional(hints[f.name])
        if inner not in _CODECS:
            raise TypeError(f"{name}.{f.name}: no payload codec for {inner!r}")
        is_tags = inner == tuple[Tag, ...]
        if f.name in text and not (nullable or is_tags):
            raise TypeError(f"{name}.{f.name} holds text, so a purge must be able to null it")
        if f.name in cls.OMIT_IF_NONE and not nullable:
            raise TypeError(f"{name}.{f.name} is left out when None but cannot be None")
        default = f.default
        if f.default_factory is not MISSING:
            default = f.default_factory()
        encode, decode = _CODECS[inner]
        out.append(_Field(f.name, encode, decode, nullable, default, is_tags, _CHECKS[inner]))
    return _Entry(cls, tuple(out))


class EventRegistry:
    """Body classes by stored type name, and the mapping to and from payloads."""

    def __init__(
        self,
        classes: Iterable[type[DomainEvent]] = (),
        *,
        lazy: bool = False,
        load: Callable[[], Iterable[type[DomainEvent]]] | None = None,
    ) -> None:
        """``lazy``: check and build each class's codec when its type is first used (the
        memory's own registry, so that opening the CLI pays only for the events it uses;
        a test builds every one of them eagerly). ``load``: every class, in order (those of
        ``classes`` among them), called the first time a type not in ``classes`` is asked
        for, or the list of all; so a recall, whose event is in ``classes``, imports none
        of the other event classes (decision 0050)."""
        self._lazy = lazy
        self._load = load
        self._classes: dict[str, type[DomainEvent]] = {}
        self._by_type: dict[str, _Entry] = {}
        for cls in classes:
            self._add(cls, lazy=lazy)

    def register(self, cls: type[DomainEvent], *, lazy: bool = False) -> None:
        self._all()
        self._add(cls, lazy=lazy)

    def _add(self, cls: type[DomainEvent], *, lazy: bool) -> None:
        if cls.TYPE in self._classes:
            raise TypeError(f"event type {cls.TYPE!r} is registered twice")
        self._classes[cls.TYPE] = cls
        if not lazy:
            self._by_type[cls.TYPE] = _entry(cls)

    def _all(self) -> dict[str, type[DomainEvent]]:
        """Every class by type, ``load`` run first if it has not been."""
        if self._load is not None:
            load, self._load = self._load, None
            first, self._classes = self._classes, {}
            for cls in load():
                if first.get(cls.TYPE) is cls:
                    self._classes[cls.TYPE] = cls
                else:
                    self._add(cls, lazy=self._lazy)
            for cls in first.values():  # any the loaded list leaves out
                if cls.TYPE not in self._classes:
                    self._classes[cls.TYPE] = cls
        return self._classes

    def _class(self, event_type: str) -> type[DomainEvent] | None:
        cls = self._classes.get(event_type)
        return cls if cls is not None else self._all().get(event_type)

    def classes(self) -> list[type[DomainEvent]]:
        return list(self._all().values())

    def knows(self, event_type: str) -> bool:
        return self._class(event_type) is not None

    def readable(self, event_type: str, version: int) -> bool:
        """Whether this build reads ``event_type`` stored at ``version``."""
        cls = self._class(event_type)
        return cls is not None and version <= cls.VERSION

    def _get(self, event_type: str) -> _Entry:
        entry = self._by_type.get(event_type)
        if entry is None:
            cls = self._class(event_type)
            if cls is None:
                raise UnreadableEvent(f"the log holds an event of unknown type {event_type!r}")
            entry = self._by_type[event_type] = _entry(cls)
        return entry

    def class_of(self, event_type: str) -> type[DomainEvent]:
        return self._get(event_type).cls

    def to_payload(self, event: DomainEvent) -> Payload:
        """The JSON object stored for ``event`` (at its class's ``VERSION``)."""
        entry = self._get(event.TYPE)
        if type(event) is not entry.cls:
            raise TypeError(f"{type(event).__name__} is not the registered {event.TYPE}")
        out: Payload = {}
        for name, encode, omit in entry.out:
            value = getattr(event, name)
            if value is None:
                if not omit:
                    out[name] = None
            else:
                out[name] = value if encode is None else encode(value)
        return out

    def upcast(self, event_type: str, version: int, payload: Mapping[str, Any]) -> Payload:
        """A stored payload brought from ``version`` to its class's ``VERSION``."""
        cls = self._get(event_type).cls
        if version > cls.VERSION:
            raise UnreadableEvent(
                f"the log holds {event_type} v{version}; this build reads up to v{cls.VERSION}"
            )
        out = dict(payload)
        while version < cls.VERSION:
            step = cls.UPCASTERS.get(version)
            if step is None:
                raise UnreadableEvent(f"no upcaster takes {event_type} from v{version}")
            out = dict(step(out))
            version += 1
        return out

    def decode(
        self, event_type: str, payload: Mapping[str, Any], *, strict: bool = False
    ) -> DomainEvent:
        """The body of a payload already at its class's ``VERSION``. ``strict``: a value
        of another JSON type than its field declares, or a key no field has, does not
        decode (instead of being converted or ignored)."""
        entry = self._get(event_type)
        kwargs: dict[str, Any] = {}
        if strict:
            unknown = sorted(set(payload) - {f.name for f in entry.fields} - {REDACTED_KEY})
            if unknown:
                raise UnreadableEvent(f"{event_type} payload has unknown keys {unknown}")
        try:
            for f in entry.fields:
                raw = payload.get(f.name, MISSING)
                if raw is MISSING:
                    if f.default is MISSING:
                        raise UnreadableEvent(f"{event_type} payload lacks {f.name!r}")
                    kwargs[f.name] = f.default
                elif raw is None:
                    if not f.nullable and f.default is MISSING:
                        raise UnreadableEvent(f"{event_type} payload has no {f.name!r}")
                    kwargs[f.name] = None if f.nullable else f.default
                elif strict and not f.check(raw):
                    raise UnreadableEvent(
                        f"{event_type} payload's {f.name!r} must be {f.expected}, not {_shown(raw)}"
                    )
                else:
                    kwargs[f.name] = f.decode(raw)
        except EmbornalError as e:
            if isinstance(e, UnreadableEvent):
                raise
            raise UnreadableEvent(f"{event_type} payload does not decode: {e.message}") from e
        except (TypeError, ValueError) as e:
            raise UnreadableEvent(f"{event_type} payload does not decode: {e}") from e
        return entry.cls(**kwargs)

    def from_stored(self, event_type: str, version: int, payload: Mapping[str, Any]) -> DomainEvent:
        """The typed body of a stored event: upcast, then decoded."""
        return self.decode(event_type, self.upcast(event_type, version, payload))

    def redact_payload(
        self, event_type: str, version: int, payload: Mapping[str, Any]
    ) -> Payload | None:
        """``payload`` with its user text erased and marked redacted (None: it held none).

        A payload at the class's version loses its ``TEXT_FIELDS``: text and mappings
        become None, tags keep only the owner's. An older payload keeps only the keys its
        class declares plain (its text keys may have had other names). Keys stay where
        they are, so the stored format and schema version of the event do not change.
        """
        entry = self._get(event_type)
        cls = entry.cls
        if version == cls.VERSION:
            keys: Iterable[str] = cls.TEXT_FIELDS
        else:
            keys = [k for k in payload if k not in cls.PLAIN_FIELDS and k != REDACTED_KEY]
        tag_fields = {f.name for f in entry.fields if f.is_tags}
        out = dict(payload)
        changed = False
        for key in keys:
            if key not in out:
                continue
            value = out[key]
            if key in tag_fields and isinstance(value, list):
                kept = [t for t in value if isinstance(t, list) and t[:1] == [OWNER_KEY]]
                if kept != value:
                    out[key] = kept
                    changed = True
            elif value:  # empty: nothing to erase, and the stored form stays
                out[key] = None
                changed = True
        if not changed:
            return None
        out[REDACTED_KEY] = True
        return out

    def named_facts(self, event_type: str, payload: Mapping[str, Any]) -> set[str]:
        """The fact ids ``payload`` (at its class's version) names in the fields its class
        declares as naming facts."""
        out: set[str] = set()
        for key in self._get(event_type).cls.FACT_ID_FIELDS:
            value = payload.get(key)
            if isinstance(value, str):
                out.add(value)
            elif isinstance(value, list | tuple):
                out.update(v for v in value if isinstance(v, str))
        return out

    def hide_facts(
        self, event_type: str, payload: Mapping[str, Any], readable: Collection[str]
    ) -> Payload | None:
        """``payload`` without the fact ids not in ``readable``, in the fields its class
        declares as naming facts: a single id reads :data:`HIDDEN_ID`, a list loses it (so
        it does not count it either). None: it names no fact outside ``readable``."""
        out = dict(payload)
        changed = False
        for key in self._get(event_type).cls.FACT_ID_FIELDS:
            value = out.get(key)
            if isinstance(value, str) and value not in readable:
                out[key] = HIDDEN_ID
                changed = True
            elif isinstance(value, list | tuple) and any(v not in readable for v in value):
                out[key] = [v for v in value if v in readable]
                changed = True
        return out if changed else None


def _shown(value: Any) -> str:
    """A short, printable picture of a payload value for an error message."""
    try:
        text = json.dumps(value, ensure_ascii=True, default=repr)
    except (RecursionError, ValueError):
        return type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _every_class() -> tuple[type[DomainEvent], ...]:
    from embornal.domain.events.types import ALL_EVENT_CLASSES

    return ALL_EVENT_CLASSES


#: Every event type the memory writes (codecs built on first use of each type; the classes
#: other than a recall's imported when first asked for).
EVENTS = EventRegistry((FactsRecalled,), lazy=True, load=_every_class)


def to_payload(event: DomainEvent) -> Payload:
    return EVENTS.to_payload(event)


def from_stored(event_type: str, version: int, payload: Mapping[str, Any]) -> DomainEvent:
    return EVENTS.from_stored(event_type, version, payload)
