"""The query parts of the SQLite store, gathered in one class it derives from: each part's
reads (portability, proposals, typed links, the history protocol, canon, narratives,
claims, conflicts, the list) live in a module of their own and read through the store's ``_rows``,
``_scopes`` and ``_facts``. A new area adds its part here, not to :mod:`.sqlite`, and
its methods to :data:`~embornal.storage.sqlite.part_map.PART_METHODS` (a test holds the
two together; that module says why the map is kept).

The store derives from this class for the type checker only: at run time its parts load
when a method of theirs is first used (decision 0094), so opening a store imports none
of these modules."""

from __future__ import annotations

from embornal.storage.common.canon import CanonQueries
from embornal.storage.common.claims import ClaimQueries
from embornal.storage.common.conflict_reads import ConflictQueries
from embornal.storage.common.graph import LinkReads
from embornal.storage.common.listing import ListingQueries
from embornal.storage.common.narratives import NarrativeQueries
from embornal.storage.common.proposals import ProposalQueries
from embornal.storage.common.protocol import ProtocolReads
from embornal.storage.sqlite.portability import SqlitePortability

__all__ = ["QueryParts"]


class QueryParts(
    SqlitePortability,
    ProposalQueries,
    LinkReads,
    ProtocolReads,
    CanonQueries,
    NarrativeQueries,
    ClaimQueries,
    ConflictQueries,
    ListingQueries,
):
    """Every query part of the SQLite store."""
