"""Values: frozen dataclasses whose methods are shared, not compiled for each class.

A frozen dataclass generates and compiles six methods when its module is imported (some
0.5 ms each class on the reference machine; ``order=True`` adds four), which every short
command pays for. :func:`value` makes a real frozen dataclass (``fields``, ``replace``,
``asdict``, ``is_dataclass``, ``__match_args__`` and no assignment, as before) whose
``__init__`` (the fields in order, positionally or by name, defaults and default
factories, ``InitVar`` values handed to ``__post_init__``), ``__repr__``, ``__eq__`` and
``__hash__`` are shared, and so are the two that refuse assignment, unless it derives from
a frozen dataclass that :mod:`dataclasses` compiled (then it compiles those two). The
values a short command imports (facts, events, a recall's results, a store's commands)
are made so; decision 0187. An internal value that need not be a dataclass is a
:func:`embornal.domain.records.record`.

:class:`FieldOrder` orders a value class's instances as ``order=True`` would. Type checkers
see a frozen dataclass (``dataclass_transform``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter

from embornal.domain.records import is_class_var
from embornal.hints import Any, ClassVar, NoReturn, TypeVar, dataclass_transform

__all__ = ["FieldOrder", "value"]

_C = TypeVar("_C", bound=type)


def _tuple_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function reading ``names`` of an object as a tuple (``attrgetter`` for two or more)."""
    if len(names) > 1:
        return attrgetter(*names)
    return lambda obj: tuple(getattr(obj, name) for name in names)


class FieldOrder:
    """Orders the instances of one :func:`value` class by their compared fields, in order,
    as ``dataclass(order=True)`` does, from four shared methods: ``order=True`` would
    compile four more for each class when its module is imported (decision 0187)."""

    __slots__ = ()
    __field_order__: ClassVar[Callable[[Any], tuple[Any, ...]]]  # set by value()

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        read = type(self).__field_order__
        return read(self) < read(other)

    def __le__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        read = type(self).__field_order__
        return read(self) <= read(other)

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        read = type(self).__field_order__
        return read(self) > read(other)

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        read = type(self).__field_order__
        return read(self) >= read(other)


# -- value: a dataclass whose methods are shared -------------------------------------------

#: How :mod:`dataclasses` marks an ``InitVar`` among a class's fields (not public API, the
#: same from Python 3.7 to 3.14; ``tests/domain/test_records.py`` checks it).
_INITVAR = getattr(dataclasses, "_FIELD_INITVAR")  # noqa: B009
_CLASSVAR = getattr(dataclasses, "_FIELD_CLASSVAR")  # noqa: B009
_MISSING = dataclasses.MISSING


class _Spec:
    """What the shared methods of one :func:`value` class need, read once from its fields."""

    __slots__ = (
        "accepted",
        "compared",
        "defaults",
        "factories",
        "fields",
        "filled",
        "hashed",
        "initvars",
        "names",
        "owner",
        "plain",
        "post",
        "shown",
    )

    def __init__(self, cls: Any) -> None:
        every = [f for f in cls.__dataclass_fields__.values() if f._field_type is not _CLASSVAR]
        for f in every:
            if f.kw_only is True or not f.init:
                raise TypeError(f"{cls.__qualname__}.{f.name}: value() takes plain fields only")
        stored = [f for f in every if f._field_type is not _INITVAR]
        self.owner = cls
        self.fields = frozenset(f.name for f in stored)
        self.names = tuple(f.name for f in every)
        self.initvars = tuple(f.name for f in every if f._field_type is _INITVAR)
        self.defaults = {f.name: f.default for f in every if f.default is not _MISSING}
        self.factories: dict[str, Callable[[], Any]] = {
            f.name: f.default_factory for f in every if f.default_factory is not _MISSING
        }
        self.shown = tuple(f.name for f in stored if f.repr)
        self.compared = tuple(f.name for f in stored if f.compare)
        self.hashed = tuple(f.name for f in stored if (f.compare if f.hash is None else f.hash))
        self.post: Callable[..., None] | None = getattr(cls, "__post_init__", None)
        self.accepted = frozenset(self.names)
        #: No InitVar and no __post_init__: __init__ may set what it is given as it is.
        self.plain = not self.initvars and self.post is None
        #: The fields that need not be given: a default or a default factory.
        self.filled = frozenset(self.defaults) | frozenset(self.factories)


def _value_init(self: Any, *args: Any, **kwargs: Any) -> None:
    spec: _Spec = self.__value_spec__
    names = spec.names
    if spec.plain:  # no InitVar, no __post_init__: the common calls set what they are given
        if not kwargs and len(args) == len(names):
            self.__dict__.update(zip(names, args, strict=True))
            return
        if not args and len(kwargs) == len(names) and kwargs.keys() <= spec.accepted:
            self.__dict__.update(kwargs if tuple(kwargs) == names else _ordered(names, kwargs))
            return
    if args:
        if len(args) > len(names):
            _refuse(
                self, f"takes {len(names) + 1} positional arguments but {len(args) + 1} were given"
            )
        given = dict(zip(names, args, strict=False))
        if kwargs:
            if not given.keys().isdisjoint(kwargs):
                twice = next(k for k in kwargs if k in given)
                _refuse(self, f"got multiple values for argument {twice!r}")
            given.update(kwargs)
    else:
        given = kwargs
    if not given.keys() <= spec.accepted:
        unknown = next(k for k in given if k not in spec.accepted)
        _refuse(self, f"got an unexpected keyword argument {unknown!r}")
    values = dict.fromkeys(names)  # the fields' order, as a dataclass's __init__ sets them
    if len(given) < len(names):
        if len(given.keys() | spec.filled) < len(names):
            missing = ", ".join(repr(n) for n in names if n not in given and n not in spec.filled)
            _refuse(self, f"missing required arguments: {missing}")
        values.update(spec.defaults)
        for name, factory in spec.factories.items():
            if name not in given:
                values[name] = factory()
    values.update(given)
    if spec.initvars:
        initvars = [values.pop(n) for n in spec.initvars]
        self.__dict__.update(values)
        if spec.post is not None:
            spec.post(self, *initvars)
        return
    self.__dict__.update(values)
    if spec.post is not None:
        spec.post(self)


def _ordered(names: tuple[str, ...], given: dict[str, Any]) -> dict[str, Any]:
    values = dict.fromkeys(names)
    values.update(given)
    return values


def _refuse(self: Any, problem: str) -> NoReturn:
    raise TypeError(f"{type(self).__qualname__}.__init__() {problem}")


def _value_repr(self: Any) -> str:
    d = self.__dict__
    shown = ", ".join(f"{n}={d[n]!r}" for n in self.__value_spec__.shown)
    return f"{type(self).__qualname__}({shown})"


def _value_eq(self: Any, other: object) -> Any:  # bool, or NotImplemented
    names: tuple[str, ...] = self.__value_spec__.compared
    if other.__class__ is not self.__class__:
        return NotImplemented
    mine, theirs = self.__dict__, other.__dict__
    return tuple(mine[n] for n in names) == tuple(theirs[n] for n in names)


def _value_hash(self: Any) -> int:
    d = self.__dict__
    return hash(tuple(d[n] for n in self.__value_spec__.hashed))


def _value_setattr(self: Any, name: str, value: Any) -> None:
    spec: _Spec = self.__value_spec__
    if type(self) is spec.owner or name in spec.fields:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _value_delattr(self: Any, name: str) -> None:
    spec: _Spec = self.__value_spec__
    if type(self) is spec.owner or name in spec.fields:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


class _Signature:
    """``inspect.signature`` of a value class: its fields, as a dataclass's ``__init__``
    shows them; made on first use (``inspect`` is not imported at start-up)."""

    def __get__(self, instance: object, owner: Any) -> Any:
        import inspect  # only help() and signature() ask

        every = owner.__dataclass_fields__.values()
        parameters = [
            inspect.Parameter(
                f.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=_FACTORY if f.default_factory is not _MISSING else f.default,
                annotation=f.type,
            )
            for f in every
            if f._field_type is not _CLASSVAR
        ]
        empty = inspect.Parameter.empty
        parameters = [p.replace(default=empty) if p.default is _MISSING else p for p in parameters]
        return inspect.Signature(parameters, return_annotation=None)


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def value(cls: _C) -> _C:
    """A frozen dataclass of ``cls`` whose methods are shared, not compiled for it (see
    the module)."""
    if not cls.__dict__.get("__doc__"):  # dataclasses would write one with inspect
        raise TypeError(f"{cls.__qualname__}: a value class has a docstring")
    # Below a frozen dataclass that dataclasses made, dataclasses must make it frozen too
    # (it compiles the two methods that refuse assignment). Otherwise those are shared as
    # well, and the class's parameters say frozen, as they would have, so a frozen
    # dataclass may derive from it; while dataclasses makes a value class below value
    # classes, theirs say what dataclasses made (not frozen), which it checks.
    above = [vars(base) for base in cls.__mro__[1:] if "__dataclass_params__" in vars(base)]
    shared = [own["__dataclass_params__"] for own in above if "__value_spec__" in own]
    below_frozen = any(
        own["__dataclass_params__"].frozen for own in above if "__value_spec__" not in own
    )
    for params in shared:
        params.frozen = below_frozen
    # dataclasses does not see the class variables (see is_class_var): it would take one
    # for a field when typing is not imported
    notes = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (inspect costs start-up)
    hidden = any(is_class_var(note) for note in notes.values())
    if hidden:
        cls.__annotations__ = {n: note for n, note in notes.items() if not is_class_var(note)}
    try:
        made: Any = dataclasses.dataclass(frozen=below_frozen, init=False, repr=False, eq=False)(
            cls
        )
    finally:
        for params in shared:
            params.frozen = True
        if hidden:
            cls.__annotations__ = notes
    own = made.__dict__
    # as dataclasses decides: a __hash__ of the class's own, unless it is the None that
    # defining __eq__ leaves
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and "__eq__" in own))
    members: dict[str, Any] = {
        "__init__": _value_init,
        "__repr__": _value_repr,
        "__eq__": _value_eq,
        "__signature__": _Signature(),
    }
    if not below_frozen:
        for key in ("__setattr__", "__delattr__"):
            if key in own:  # as dataclasses refuses it for a frozen class
                raise TypeError(f"Cannot overwrite attribute {key} in class {cls.__name__}")
        members |= {"__setattr__": _value_setattr, "__delattr__": _value_delattr}
        made.__dataclass_params__.frozen = True
    for key, member in members.items():
        if key not in own:
            setattr(made, key, member)
    if not explicit_hash:  # over the None an own __eq__ leaves, as dataclasses does
        made.__hash__ = _value_hash
    made.__value_spec__ = spec = _Spec(made)
    if issubclass(made, FieldOrder):
        made.__field_order__ = _tuple_of(spec.compared)  # what it compares
    return cls
