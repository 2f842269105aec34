"""Records: frozen value classes whose methods are shared, made without :mod:`dataclasses`.

A frozen dataclass generates and compiles six methods when its module is imported (some
0.5 ms each class on the reference machine), which every short command pays for.
:func:`record` gives an internal value the behaviour of a frozen dataclass from methods
every record shares: the fields in order, positionally or by name, with their defaults;
a ``__post_init__``; a ``repr``, equality and a hash; no assignment. It is not a
dataclass for :mod:`dataclasses` (no ``fields``, ``replace`` or ``asdict``):
:func:`record_fields` names its fields (the wire shows a record as it shows a dataclass;
decision 0050). A value that must be a real dataclass is made by
:func:`embornal.domain.values.value` (decision 0187).

This module imports no :mod:`dataclasses` (nor :mod:`inspect`, which it imports): the
catalogue's records are made from it while the command line parses, before the console
script defers what a short command does not run (decision 0196). Type checkers see a
frozen dataclass (``dataclass_transform``).
"""

from __future__ import annotations

from embornal.hints import Any, TypeVar, dataclass_transform

__all__ = ["is_class_var", "record", "record_fields"]

_C = TypeVar("_C", bound=type)


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = cls.__record_names__
    values = self.__dict__
    values.update(cls.__record_defaults__)
    if args:
        if len(args) > len(names):
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} arguments, {len(args)} given")
        values.update(zip(names, args, strict=False))
        if kwargs and not kwargs.keys().isdisjoint(names[: len(args)]):
            twice = next(k for k in kwargs if k in names[: len(args)])
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {twice!r}")
    if kwargs:
        known: frozenset[str] = cls.__record_known__
        if not kwargs.keys() <= known:  # (a set test: the catalogue makes hundreds of records)
            unknown = next(k for k in kwargs if k not in known)
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {unknown!r}")
        values.update(kwargs)
    if len(values) != len(names):
        missing = [n for n in names if n not in values]
        raise TypeError(f"{cls.__qualname__}() missing arguments: {', '.join(missing)}")
    post = cls.__record_post_init__
    if post is not None:
        post(self)


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise AttributeError(f"{type(self).__qualname__} is frozen: cannot set or delete {name!r}")


def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={self.__dict__[n]!r}" for n in type(self).__record_names__)
    return f"{type(self).__qualname__}({shown})"


def _key(self: Any) -> tuple[Any, ...]:
    return tuple(self.__dict__[n] for n in type(self).__record_compared__)


def _eq(self: Any, other: object) -> Any:  # bool, or NotImplemented
    if type(other) is not type(self):
        return NotImplemented
    return _key(self) == _key(other)


def _hash(self: Any) -> int:
    return hash(_key(self))


def is_class_var(note: object) -> bool:
    """Whether an annotation says a class variable: it reads ``ClassVar[...]`` (as text,
    under postponed annotations). :mod:`dataclasses` knows one written as text only when
    :mod:`typing` is imported and the name is typing's own, neither of which holds for a
    short command (:mod:`embornal.hints`)."""
    return str(note).startswith(("ClassVar", "typing.ClassVar"))


@dataclass_transform(frozen_default=True)
def record(cls: _C) -> _C:
    """A frozen record of the class's annotated fields, in order, with their defaults.

    Equality and the hash read every field but those the class names in a class variable
    ``__record_uncompared__`` (as ``field(compare=False)`` would)."""
    notes = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (inspect costs start-up)
    names = tuple(n for n in notes if not is_class_var(notes[n]))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    uncompared = cls.__dict__.get("__record_uncompared__", ())
    members: dict[str, Any] = {
        "__init__": _init,
        "__setattr__": _frozen,
        "__delattr__": _frozen,
        "__repr__": _repr,
        "__eq__": _eq,
        "__hash__": _hash,
        "__match_args__": names,
        "__record_names__": names,
        "__record_known__": frozenset(names),
        "__record_compared__": tuple(n for n in names if n not in uncompared),
        "__record_defaults__": defaults,
        "__record_post_init__": getattr(cls, "__post_init__", None),
    }
    for key, member in members.items():
        setattr(cls, key, member)
    return cls


def record_fields(obj: object) -> tuple[str, ...] | None:
    """The field names of a record instance, in order (None: ``obj`` is not one)."""
    if isinstance(obj, type):
        return None
    names: tuple[str, ...] | None = getattr(type(obj), "__record_names__", None)
    return names
