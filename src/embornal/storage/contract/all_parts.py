"""Every query part of a store, as the attributes of one Protocol: the one place the
contract names the parts (decisions 0181, 0186).

The type checker reads :class:`AllParts` as :class:`~embornal.storage.contract.parts.StoreParts`,
a base of :class:`~embornal.storage.contract.store.Store`: a store must have each part, of
its Protocol's type, so ``store.claims.claim_rows(...)`` is checked. At run time this module
is imported only when a part's name is first read through
:mod:`embornal.storage.contract.store`, which re-exports what the module of each part's
Protocol exports (its ``__all__``). The parts whose Protocols ``contract.store`` holds itself
(``links``, ``protocol``, ``portability``) are attributes of ``Store`` there. So a new part
adds its attribute here and writes nothing else in the contract outside its own module. The
list stays written by hand: a class's members are what a type checker reads, and nothing at
run time can make them for it.
"""

from __future__ import annotations

from typing import Protocol

from embornal.storage.contract.claims import ClaimReads
from embornal.storage.contract.listing import ListingReads
from embornal.storage.contract.narratives import NarrativeReads
from embornal.storage.contract.review import CanonReads, ConflictReads, ProposalReads
from embornal.storage.contract.timeline import TimelineReads

__all__ = ["AllParts"]


class AllParts(Protocol):
    """The query parts a store has, each built when first read (``embornal.lazy.Part``)."""

    @property
    def conflicts(self) -> ConflictReads: ...

    @property
    def proposals(self) -> ProposalReads: ...

    @property
    def canon(self) -> CanonReads: ...

    @property
    def timeline(self) -> TimelineReads: ...

    @property
    def narratives(self) -> NarrativeReads: ...

    @property
    def claims(self) -> ClaimReads: ...

    @property
    def listing(self) -> ListingReads: ...
