"""What a store's query part is (decision 0186): an object holding the store it reads
through, built the first time the store's attribute for it is read
(:class:`embornal.lazy.Part`); :mod:`.parts` declares them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.storage.common.access import ScopeCache, Visibility

__all__ = ["PartStore", "StorePart", "given_terms"]


def given_terms(*terms: tuple[str, Any]) -> tuple[list[str], list[Any]]:
    """A read's optional filters: of the ``(sql, value)`` pairs, the SQL terms whose value
    is given (not None), in order, and those values (each term has one ``?``)."""
    given = [(sql, value) for sql, value in terms if value is not None]
    return [sql for sql, _ in given], [value for _, value in given]


class PartStore(Protocol):
    """What a part reads through: the store's rows, its compiled scopes, its facts."""

    _scopes: ScopeCache

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

    def _facts(self, rows: list[Any], vis: Visibility) -> list[Fact]: ...

    def _live(self) -> str: ...

    def _age_days(self, now: str) -> str:
        """The days from the anchor of ``f``'s strength to ``now``, in the store's SQL."""
        ...


class StorePart:
    """One query part of a store: reads through the store it is built with."""

    __slots__ = ("_store",)

    def __init__(self, store: PartStore) -> None:
        self._store = store

    def _ids_starting(self, table: str, prefix: str, after: str | None, limit: int) -> list[str]:
        """Up to ``limit`` ids of ``table`` that start with ``prefix``, after ``after``, in
        order (a claim's or a proposal's id, given shortened)."""
        rows = self._store._rows(
            f"SELECT id FROM {table} WHERE id >= ? AND id > ? AND id < ? ORDER BY id LIMIT ?",
            (prefix, after or "", prefix + "\uffff", limit),
        )
        return [r[0] for r in rows]
