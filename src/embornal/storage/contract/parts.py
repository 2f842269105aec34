"""The storage contract's parts (review, timeline, narratives, claims, listing) as one Protocol
base of :class:`~embornal.storage.contract.store.Store`, and where each of their names lives
(decision 0094).

The type checker sees :class:`StoreParts` derive from every part's Protocol, so a store
must have each part's methods. At run time it is an empty Protocol and the parts'
modules are not imported until one of their names is read through
:mod:`embornal.storage.contract.store` (its module ``__getattr__``, made by :func:`reexport`):
a command that never names a part, as ``memory recall``, loads none of them. A store's
``isinstance`` check against a part's Protocol imports it from its module.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

__all__ = ["NAMES", "StoreParts", "part_name", "reexport"]

#: Each name :mod:`embornal.storage.contract.store` re-exports from a part → the part's module.
NAMES: dict[str, str] = {
    **dict.fromkeys(("ClaimReads", "ClaimRow"), "embornal.storage.contract.claims"),
    **dict.fromkeys(("NarrativeReads", "NarrativeRow"), "embornal.storage.contract.narratives"),
    **dict.fromkeys(("TimelineReads", "TimelineRow"), "embornal.storage.contract.timeline"),
    **dict.fromkeys(
        ("LIST_SORTS", "LinkMap", "ListFilter", "ListPage", "ListRow", "ListingReads"),
        "embornal.storage.contract.listing",
    ),
    **dict.fromkeys(
        (
            "CanonReads",
            "CanonRow",
            "ConflictReads",
            "LabelCount",
            "ProposalReads",
            "ProposalRow",
            "RetentionRow",
        ),
        "embornal.storage.contract.review",
    ),
}


def part_name(module: str, name: str) -> Any:
    """A part's ``name``, re-exported by ``module``; AttributeError for another name."""
    where = NAMES.get(name)
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
    from embornal.storage.contract.claims import ClaimReads
    from embornal.storage.contract.listing import ListingReads
    from embornal.storage.contract.narratives import NarrativeReads
    from embornal.storage.contract.review import CanonReads, ConflictReads, ProposalReads
    from embornal.storage.contract.timeline import TimelineReads

    class StoreParts(
        ConflictReads,
        ProposalReads,
        CanonReads,
        TimelineReads,
        NarrativeReads,
        ClaimReads,
        ListingReads,
        Protocol,
    ):
        """The parts' reads a store has."""

else:

    class StoreParts(Protocol):
        """The parts' reads a store has (their Protocols: for the type checker only)."""
