"""The query parts of a store (decision 0186): each an attribute named for what it reads,
built the first time it is read (:class:`embornal.lazy.Part`), so opening a store imports
none of their modules and a command loads only the part it calls.

:class:`CommonParts` declares the parts both stores run: proposals and retention, typed
links, the history protocol's lists, canon, narratives, claims, conflicts and the list,
each written once over a store's ``_rows``, ``_scopes`` and ``_facts`` (PostgreSQL's SQL
through its dialect). Both stores derive from it and declare their own parts (portability,
the timeline) beside it. A part is a :class:`~.part.StorePart`: it holds the store it reads
through, and its helpers are its own methods. A new method of a part is written in its
module only; a new part is one line here (or in a store) and one in the contract's
:class:`~embornal.storage.contract.all_parts.AllParts`, which types it.

This module imports none of the parts: their classes are named for the type checker only.
"""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.lazy import Part

if TYPE_CHECKING:
    from embornal.storage.common.canon import CanonQueries
    from embornal.storage.common.claims import ClaimQueries
    from embornal.storage.common.conflict_reads import ConflictQueries
    from embornal.storage.common.graph import LinkReads
    from embornal.storage.common.listing import ListingQueries
    from embornal.storage.common.narratives import NarrativeQueries
    from embornal.storage.common.proposals import ProposalQueries
    from embornal.storage.common.protocol import ProtocolReads

__all__ = ["CommonParts"]


class CommonParts:
    """The query parts both stores run, each built when first read and kept."""

    proposals: Part[ProposalQueries] = Part("embornal.storage.common.proposals:ProposalQueries")
    links: Part[LinkReads] = Part("embornal.storage.common.graph:LinkReads")
    protocol: Part[ProtocolReads] = Part("embornal.storage.common.protocol:ProtocolReads")
    canon: Part[CanonQueries] = Part("embornal.storage.common.canon:CanonQueries")
    narratives: Part[NarrativeQueries] = Part("embornal.storage.common.narratives:NarrativeQueries")
    claims: Part[ClaimQueries] = Part("embornal.storage.common.claims:ClaimQueries")
    conflicts: Part[ConflictQueries] = Part(
        "embornal.storage.common.conflict_reads:ConflictQueries"
    )
    listing: Part[ListingQueries] = Part("embornal.storage.common.listing:ListingQueries")
