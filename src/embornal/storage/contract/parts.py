"""The storage contract's parts (review, timeline, narratives, claims, listing) as one Protocol
base of :class:`~embornal.storage.contract.store.Store`, and where each of their names lives
(decisions 0094, 0181).

The type checker sees :class:`StoreParts` as :class:`~embornal.storage.contract.all_parts.AllParts`,
which derives from every part's Protocol, so a store must have each part's methods. At run
time it is an empty Protocol and the parts' modules are not imported until one of their
names is read through :mod:`embornal.storage.contract.store` (its module ``__getattr__``,
made by :func:`embornal.lazy.exports` from :func:`names`): then :func:`names` reads, from
the modules of ``AllParts``' bases, what each exports. A command that never names a
part, as ``memory recall``, loads none of them. A store's ``isinstance`` check against a
part's Protocol imports it from its module.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Protocol

__all__ = ["StoreParts", "names"]


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


if TYPE_CHECKING:
    from embornal.storage.contract.all_parts import AllParts as StoreParts
else:

    class StoreParts(Protocol):
        """The parts' reads a store has (their Protocols: for the type checker only)."""
