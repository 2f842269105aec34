"""The query parts of the SQLite store, gathered in one class it derives from: the parts
both backends run (:class:`~embornal.storage.common.parts.CommonParts`), SQLite's
portability and the history protocol's reads with the timeline. Each part's reads live in a
module of their own and read through the store's ``_rows``, ``_scopes`` and ``_facts``. A
part both backends run is added to ``CommonParts``, and its methods to
:data:`~embornal.storage.sqlite.part_map.PART_METHODS` (a test holds the two together; that
module says why the map is kept).

The store derives from this class for the type checker only: at run time its parts load
when a method of theirs is first used (decision 0094), so opening a store imports none
of these modules."""

from __future__ import annotations

from embornal.storage.common.parts import CommonParts
from embornal.storage.common.protocol import ProtocolReads
from embornal.storage.sqlite.portability import SqlitePortability

__all__ = ["QueryParts"]


class QueryParts(SqlitePortability, ProtocolReads, CommonParts):
    """Every query part of the SQLite store."""
