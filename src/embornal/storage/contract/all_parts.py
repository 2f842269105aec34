"""Every part of the storage contract (review, timeline, narratives, claims, listing), as the
bases of one Protocol: the one place the parts are named (decisions 0094, 0181).

The type checker reads :class:`AllParts` as :class:`~embornal.storage.contract.parts.StoreParts`,
a base of :class:`~embornal.storage.contract.store.Store`: a store must have each part's reads.
At run time this module is imported only when a part's name is first read through
:mod:`embornal.storage.contract.store`, which re-exports what each base's module exports
(its ``__all__``). So a new part adds its Protocol here and writes nothing else outside its
own module. The list stays written by hand: a class's bases are what a type checker reads,
and nothing at run time can make them for it.
"""

from __future__ import annotations

from typing import Protocol

from embornal.storage.contract.claims import ClaimReads
from embornal.storage.contract.listing import ListingReads
from embornal.storage.contract.narratives import NarrativeReads
from embornal.storage.contract.review import CanonReads, ConflictReads, ProposalReads
from embornal.storage.contract.timeline import TimelineReads

__all__ = ["AllParts"]


class AllParts(
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
