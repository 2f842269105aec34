"""The storage contract's part for the memory list and the whole-memory graph (decision
0159): the live facts in scope filtered, sorted and paged in the database, and the typed
links between live facts in scope, the most linked first. :mod:`embornal.storage.contract.store`
re-exports the names here and makes :class:`~embornal.storage.contract.store.Store` of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from embornal.domain.records import record
from embornal.errors import InvalidInput

if TYPE_CHECKING:
    from embornal.domain.access.scope import ReadScope
    from embornal.domain.facts.fact import Fact

__all__ = ["LIST_SORTS", "LinkMap", "ListFilter", "ListPage", "ListRow", "ListingReads"]

#: The orders of a list: newest or oldest created, strongest or weakest at ``now``, by
#: path (then oldest). Each ends on the fact's storage order: a stable order for paging.
LIST_SORTS = ("newest", "oldest", "strongest", "weakest", "path")


@record
class ListFilter:
    """What a list keeps (None: no condition). ``under``: at or below that path; ``tag``:
    the fact's own tag ``(key, value)``; ``stage``/``tier``: its history protocol row;
    confidence and strength bounds inclusive (a fact of no stored confidence fails a
    confidence bound); strength at the read's ``now``."""

    under: str | None = None
    kind: str | None = None
    tag: tuple[str, str] | None = None
    stage: str | None = None
    tier: str | None = None
    owner: str | None = None
    min_confidence: float | None = None
    max_confidence: float | None = None
    min_strength: float | None = None
    max_strength: float | None = None
    sort: str = "newest"

    def __post_init__(self) -> None:
        if self.sort not in LIST_SORTS:
            raise InvalidInput(f"sort must be one of {', '.join(LIST_SORTS)}, not {self.sort!r}")


@record
class ListRow:
    """A fact of a list with its protocol row's ``stage`` and ``tier`` (None: no row)."""

    fact: Fact
    stage: str | None
    tier: str | None


@record
class ListPage:
    """One page of a list and ``total``, how many facts the whole list holds."""

    rows: tuple[ListRow, ...]
    total: int


@record
class LinkMap:
    """The typed links between live facts in scope: the ``nodes`` (fact id, degree), the
    most linked first (then by id), at most the limit asked; the ``edges``
    ``(source, relation, target)`` between them; and the totals of the whole map."""

    nodes: tuple[tuple[str, int], ...]
    edges: tuple[tuple[str, str, str], ...]
    total_nodes: int
    total_edges: int


@runtime_checkable
class ListingReads(Protocol):
    def list_rows(
        self, where: ListFilter, scope: ReadScope, *, now: str, offset: int, limit: int
    ) -> ListPage:
        """The live facts in scope that ``where`` keeps, in its ``sort`` (strength at
        ``now``, ISO-8601 UTC), the ``limit`` after the first ``offset``; filtered, counted
        and sorted by the database."""
        ...

    def link_map(
        self,
        scope: ReadScope,
        *,
        under: str | None = None,
        relation: str | None = None,
        limit: int,
    ) -> LinkMap:
        """The links whose two ends are live facts in scope, of ``relation`` (None: any),
        one end at or below ``under`` (None: anywhere); the ``limit`` most linked facts
        and the links between them."""
        ...
