"""Imports put off until first use: the one way embornal defers one (decision 0183).

``embornal memory recall`` must start fast (agents call it from hooks), so what a command
may never need is imported the first time it is used, in one of four forms:

* :func:`exports`: a package re-exports names from its modules (PEP 562). The package's
  ``__getattr__`` imports a name's module the first time the name is read, then keeps the
  value in the package, so the next read is a plain attribute.
* :class:`Later`: a module that calls another only on some paths holds it as
  ``name = Later("embornal.x.y")``; the first attribute read imports it.
* :class:`Part`: a class declares ``name: Part[C] = Part("embornal.x.y:C")``; the first
  read of ``name`` on an instance imports ``embornal.x.y``, builds ``C(instance)`` and
  keeps it on the instance, so the next read is a plain attribute (a store's query parts,
  decision 0186).
* :func:`defer`: a standard module that a short command's imports name but its run does
  not use is put in ``sys.modules`` as an :class:`OnFirstUse`, whose code runs on the
  first read of one of its attributes. Only the console script does this, in its own
  process (decisions 0173, 0182).

Type checkers see the real imports, written under ``TYPE_CHECKING`` beside them. Both go
through the ``import`` statement's own machinery, so ``python -X importtime`` lists what
they import. Stdlib only (typing's names from :mod:`embornal.hints`), so every layer may use
it.
"""

from __future__ import annotations

import _thread
import sys
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType

from embornal.hints import TYPE_CHECKING, Any, Generic, TypeVar, overload

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

__all__ = ["Later", "OnFirstUse", "Part", "defer", "exports"]

T = TypeVar("T")


class Later:
    """Stands for the module ``name``; the first attribute read imports it (and keeps it:
    a store through the facade then pays no look-up in ``sys.modules``)."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = _load(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"Later({self._name!r})"


class Part(Generic[T]):
    """An attribute of a class that stands for one part of each instance: the class
    ``where`` (``"module:Class"``), built as ``Class(instance)`` the first time the
    attribute is read on an instance, its module imported only then.

    The part is kept in the instance's ``__dict__``, which a descriptor with no
    ``__set__`` yields to, so the next read is a plain attribute. Two threads reading it
    first at once may each build one; the last kept is the instance's from then on (a
    part holds nothing but its instance). Read on the class, it is the descriptor.

    >>> class Store:
    ...     claims: Part[ClaimQueries] = Part("embornal.storage.common.claims:ClaimQueries")
    """

    __slots__ = ("_name", "where")

    def __init__(self, where: str) -> None:
        self.where = where
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @property
    def module(self) -> str:
        """The module the part's class is in."""
        return self.where.partition(":")[0]

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Part[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object, owner: type | None = None) -> Part[T] | T:
        if instance is None:
            return self
        module, _, name = self.where.partition(":")
        part: T = getattr(_load(module), name)(instance)
        instance.__dict__[self._name] = part
        return part

    def __repr__(self) -> str:
        return f"Part({self.where!r})"


def exports(
    package: str, where: Mapping[str, str] | Callable[[], Mapping[str, str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the module ``package``: each name of ``where``
    is read from the module ``where[name]`` (a name starting with ``.``: a submodule of
    ``package``) the first time it is asked for, then kept in ``package``'s namespace.
    ``where`` may be a function that makes the table when a name is first asked for (a
    dunder name, which ``import`` and tools probe for, is refused without making it).

    >>> __getattr__, __dir__ = exports(__name__, {"Memory": "embornal.service.memory"})
    """
    namespace = sys.modules[package].__dict__

    def table() -> Mapping[str, str]:
        return where if isinstance(where, Mapping) else where()

    def __getattr__(name: str) -> Any:
        home = None if name.startswith("__") else table().get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(_load(package + home if home.startswith(".") else home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *table()})

    return __getattr__, __dir__


def _load(name: str) -> ModuleType:
    """The module ``name``, imported as the ``import`` statement does (``-X importtime``
    shows it, as it does not show :func:`importlib.import_module`)."""
    __import__(name)
    return sys.modules[name]


class OnFirstUse(ModuleType):
    """A module whose code runs on the first read of one of its attributes.

    ``import`` finds it in ``sys.modules`` and binds it as it is; the first attribute
    read (``inspect.signature``, ``from copy import deepcopy``) runs the module's code
    into this same object, which from then on is an ordinary module. Unlike
    :class:`importlib.util.LazyLoader`, reading ``__spec__`` (as ``import`` does) does not
    run it.
    """

    def __init__(self, spec: ModuleSpec) -> None:
        super().__init__(spec.name)
        self.__spec__ = spec
        self.__loader__ = spec.loader

    def __getattr__(self, name: str) -> object:
        with _RUNNING:  # a second thread waits for the first run, then reads the module
            if type(self) is OnFirstUse:
                spec = self.__spec__
                if spec is None or spec.loader is None or spec.name in _RUN:
                    # read by its own code while it runs: as a partly imported module
                    raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
                _RUN.add(spec.name)
                if spec.has_location:
                    self.__file__ = spec.origin
                    self.__cached__ = spec.cached
                spec.loader.exec_module(self)
                object.__setattr__(self, "__class__", ModuleType)  # ordinary now
        return getattr(self, name)


_RUNNING = _thread.RLock()
_RUN: set[str] = set()


def defer(names: Iterable[str]) -> None:
    """Put each module of ``names`` that is not imported yet in ``sys.modules`` as an
    :class:`OnFirstUse`: its code runs the first time one of its attributes is read."""
    from importlib.machinery import PathFinder

    for name in names:
        spec = None if name in sys.modules else PathFinder.find_spec(name)
        if spec is not None and spec.loader is not None:
            sys.modules[name] = OnFirstUse(spec)
