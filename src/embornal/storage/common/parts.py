"""The query parts both stores run, as the bases of one class (decision 0181): proposals and
retention, typed links, canon, narratives, claims, conflicts and the list, each written once
over a store's ``_rows``, ``_scopes`` and ``_facts`` (PostgreSQL's SQL through its dialect).

:class:`~embornal.storage.postgres.store.PostgresStore` derives from :class:`CommonParts`;
SQLite's :class:`~embornal.storage.sqlite.parts.QueryParts` does, for the type checker only
(its methods are bound when first used: :mod:`embornal.storage.sqlite.part_map`). So a part
both backends run is named here once. The list stays written by hand: a class's bases are
what a type checker reads. What each backend adds of its own (portability, the history
protocol's and the timeline's reads) is in its own class.
"""

from __future__ import annotations

from embornal.storage.common.canon import CanonQueries
from embornal.storage.common.claims import ClaimQueries
from embornal.storage.common.conflict_reads import ConflictQueries
from embornal.storage.common.graph import LinkReads
from embornal.storage.common.listing import ListingQueries
from embornal.storage.common.narratives import NarrativeQueries
from embornal.storage.common.proposals import ProposalQueries

__all__ = ["CommonParts"]


class CommonParts(
    ProposalQueries,
    LinkReads,
    CanonQueries,
    NarrativeQueries,
    ClaimQueries,
    ConflictQueries,
    ListingQueries,
):
    """Every query part both stores run."""
