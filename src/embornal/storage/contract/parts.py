"""The storage contract's parts (review, timeline, narratives, claims, listing) as one Protocol
base of :class:`~embornal.storage.contract.store.Store`, and where each of their names lives
(decisions 0094, 0181).

The type checker sees :class:`StoreParts` as :class:`~embornal.storage.contract.all_parts.AllParts`,
which derives from every part's Protocol, so a store must have each part's methods. At run
time it is an empty Protocol and the parts' modules are not imported until one of their
names is read through :mod:`embornal.storage.contract.store` (its module ``__getattr__``,
made by :func:`reexport`): then :func:`names` reads, from the modules of ``AllParts``' bases,
what each exports. A command that never names a part, as ``memory recall``, loads none of
them. A store's ``isinstance`` check against a part's Protocol imports it from its module.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

__all__ = ["StoreParts", "names", "part_name", "reexport"]


@cache
def names() -> dict[str, str]:
    """Each name :mod:`embornal.storage.contract.store` re-exports from a part → the part's
    module: what the module of each base of ``AllParts`` exports, in the bases' order."""
    from embornal.storage.contract.all_parts import AllParts

    found: dict[str, str] = {}
    for base in AllParts.__bases__:
        if base is not Protocol:
            for name in import_module(base.__module__).__all__:
                found.setdefault(name, base.__module__)
    return found


def part_name(module: str, name: str) -> Any:
    """A part's ``name``, re-exported by ``module``; AttributeError for another name."""
    where = None if name.startswith("__") else names().get(name)
    if where is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    return getattr(import_module(where), name)


def reexport(namespace: MutableMapping[str, Any]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of the module whose globals are ``namespace``: a part's
    name, read from its module and kept in ``namespace`` (the next read is a global)."""

    def __getattr__(name: str) -> Any:
        value = namespace[name] = part_name(str(namespace["__name__"]), name)
        return value

    return __getattr__


if TYPE_CHECKING:
    from embornal.storage.contract.all_parts import AllParts as StoreParts
else:

    class StoreParts(Protocol):
        """The parts' reads a store has (their Protocols: for the type checker only)."""
