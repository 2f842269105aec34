"""The storage contract's query parts as one Protocol base of
:class:`~embornal.storage.contract.store.Store`, and where each of their names lives
(decisions 0094, 0181, 0186).

The type checker sees :class:`StoreParts` as :class:`~embornal.storage.contract.all_parts.AllParts`,
whose attributes are the parts (``store.claims``, ``store.links``, ...), each typed by its
Protocol. At run time it is an empty Protocol and the parts' modules are not imported until
one of their names is read through :mod:`embornal.storage.contract.store` (its module
``__getattr__``, made by :func:`embornal.lazy.exports` from :func:`names`): then
:func:`names` reads, from the modules of the Protocols ``AllParts`` names, what each
exports. A command that never names a part, as ``memory recall``, loads none of them.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Protocol, get_type_hints

__all__ = ["StoreParts", "names"]


@cache
def names() -> dict[str, str]:
    """Each name :mod:`embornal.storage.contract.store` re-exports from a part -> the part's
    module: what the module of each part's Protocol in ``AllParts`` exports, in the parts'
    order."""
    from embornal.storage.contract.all_parts import AllParts

    found: dict[str, str] = {}
    for member in vars(AllParts).values():
        if isinstance(member, property) and member.fget is not None:
            module = get_type_hints(member.fget)["return"].__module__
            for name in import_module(module).__all__:
                found.setdefault(name, module)
    return found


if TYPE_CHECKING:
    from embornal.storage.contract.all_parts import AllParts as StoreParts
else:

    class StoreParts(Protocol):
        """The parts a store has (their Protocols: for the type checker only)."""
