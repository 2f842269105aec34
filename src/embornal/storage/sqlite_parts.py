"""The query parts of the SQLite store, gathered in one class it derives from: each part's
reads (portability, proposals, typed links, the history protocol, canon, narratives …)
live in a module of their own and read through the store's ``_rows``, ``_scopes`` and
``_facts``. A new area adds its part here, not to :mod:`.sqlite`."""

from __future__ import annotations

from embornal.storage.canon import CanonQueries
from embornal.storage.claims_sql import ClaimQueries
from embornal.storage.graph import LinkReads
from embornal.storage.narratives_sql import NarrativeQueries
from embornal.storage.portability import SqlitePortability
from embornal.storage.proposals_sql import ProposalQueries
from embornal.storage.protocol import ProtocolReads

__all__ = ["QueryParts"]


class QueryParts(
    SqlitePortability,
    ProposalQueries,
    LinkReads,
    ProtocolReads,
    CanonQueries,
    NarrativeQueries,
    ClaimQueries,
):
    """Every query part of the SQLite store."""
