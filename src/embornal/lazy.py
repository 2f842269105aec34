"""Imports put off until first use: the one way embornal defers one (decision 0183).

``embornal memory recall`` must start fast (agents call it from hooks), so what a command
may never need is imported the first time it is used, in one of two forms:

* :func:`exports`: a package re-exports names from its modules (PEP 562). The package's
  ``__getattr__`` imports a name's module the first time the name is read, then keeps the
  value in the package, so the next read is a plain attribute.
* :class:`Later`: a module that calls another only on some paths holds it as
  ``name = Later("embornal.x.y")``; the first attribute read imports it.

Type checkers see the real imports, written under ``TYPE_CHECKING`` beside them. Both go
through the ``import`` statement's own machinery, so ``python -X importtime`` lists what
they import. Stdlib only, so every layer may use it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["Later", "exports"]


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


def exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the module ``package``: each name of ``where``
    is read from the module ``where[name]`` (a name starting with ``.``: a submodule of
    ``package``) the first time it is asked for, then kept in ``package``'s namespace.

    >>> __getattr__, __dir__ = exports(__name__, {"Memory": "embornal.service.memory"})
    """
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        home = where.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(_load(package + home if home.startswith(".") else home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__


def _load(name: str) -> ModuleType:
    """The module ``name``, imported as the ``import`` statement does (``-X importtime``
    shows it, as it does not show :func:`importlib.import_module`)."""
    __import__(name)
    return sys.modules[name]
