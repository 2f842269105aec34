"""typing's names for the type checker; trivial stand-ins at run time (decision 0191).

The short commands (``embornal memory recall``, ``store``, ``cat``) do not import
:mod:`typing`: it costs every start some 5 ms, and none of them runs anything of it. The
modules on their path take the names they use from here. A type checker sees typing's own
(re-exported below under ``TYPE_CHECKING``, which mypy takes as true by its name; ruff reads
this module as typing: ``typing-modules`` in pyproject.toml). At run time each name is the
least that the program needs:

* ``TYPE_CHECKING`` is False.
* ``Any``, ``NoReturn``, ``TextIO`` and ``TypeAlias`` are ``object``, and ``ClassVar[...]``,
  ``Literal[...]`` and ``Concatenate[...]`` give ``object``: they are read only in
  annotations, which are text, and by ``get_type_hints`` (``object``: anything).
* ``TypeVar(...)`` and ``ParamSpec(...)`` are ``object`` too; ``Generic`` and ``Protocol``
  are empty base classes, and ``C[...]`` of a class derived from them is ``C``.
* ``cast``, ``overload`` and ``dataclass_transform(...)`` give back what they are given.
* ``NamedTuple(name, [(field, type), ...])`` (the functional form) is
  :func:`collections.namedtuple` with the types as its annotations, as typing makes it.

What this changes for a program: a Protocol of these modules can be instantiated and
``isinstance`` of one is False (typing refuses both; nothing here does either);
``typing.get_overloads`` knows none of their overloads; an annotation that
``get_type_hints`` evaluates holds ``object`` where it held a typing form. A ``ClassVar``
here is not one for :mod:`dataclasses` (it knows typing's own only, and only once typing
is imported): :func:`embornal.domain.values.value` leaves an annotation that reads
``ClassVar[...]`` out of the class's fields itself.

Modules off the short path import :mod:`typing` as usual.
"""

from __future__ import annotations

__all__ = [
    "TYPE_CHECKING",
    "Any",
    "ClassVar",
    "Concatenate",
    "Generic",
    "Literal",
    "NamedTuple",
    "NoReturn",
    "ParamSpec",
    "Protocol",
    "TextIO",
    "TypeAlias",
    "TypeVar",
    "cast",
    "dataclass_transform",
    "overload",
]

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any as Any
    from typing import ClassVar as ClassVar
    from typing import Concatenate as Concatenate
    from typing import Generic as Generic
    from typing import Literal as Literal
    from typing import NamedTuple as NamedTuple
    from typing import NoReturn as NoReturn
    from typing import ParamSpec as ParamSpec
    from typing import Protocol as Protocol
    from typing import TextIO as TextIO
    from typing import TypeAlias as TypeAlias
    from typing import TypeVar as TypeVar
    from typing import cast as cast
    from typing import dataclass_transform as dataclass_transform
    from typing import overload as overload
else:
    import sys
    from collections import namedtuple

    Any = NoReturn = TextIO = TypeAlias = object

    class _Form:
        """A form of typing written subscripted in annotations: ``X[...]`` is ``object``."""

        __slots__ = ("_name",)

        def __init__(self, name):
            self._name = name

        def __getitem__(self, parameters):
            return object

        def __repr__(self):
            return f"embornal.hints.{self._name}"

    ClassVar = _Form("ClassVar")
    Literal = _Form("Literal")
    Concatenate = _Form("Concatenate")

    def TypeVar(name, *constraints, **options):
        return object

    ParamSpec = TypeVar

    class Generic:
        """A base of generic classes: ``Generic[T]`` is this class, and ``C[X]`` is ``C``."""

        __slots__ = ()

        def __class_getitem__(cls, parameters):
            return cls

    class Protocol(Generic):
        """A base of protocols: an empty class."""

        __slots__ = ()

    def cast(typ, value):
        return value

    def overload(function):
        return function

    def dataclass_transform(**options):
        return lambda decorated: decorated

    def NamedTuple(typename, fields):
        module = sys._getframe(1).f_globals.get("__name__", "__main__")  # as typing finds it
        made = namedtuple(typename, [name for name, _ in fields], module=module)
        made.__annotations__ = made.__new__.__annotations__ = dict(fields)
        return made
