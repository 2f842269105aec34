"""The memory as it was at one past time on PostgreSQL (decisions 0041, 0100, 0119): the
reads of :class:`~embornal.storage.common.past.Past`, written once for both backends, in this
backend's :class:`~embornal.storage.common.past.PastDialect`: a JSON value by ``->`` (a number
stays a number), days by ``extract(epoch …)``, ``find``'s ``jsonb`` comparisons and keyword
search by the BM25 of decision 0075, limited to the facts live at ``at``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.storage.common.access import Among, Where
from embornal.storage.common.past import Past, PastDialect

if TYPE_CHECKING:
    from embornal.domain.facts.attributes import Condition

__all__ = ["PG", "PgPast"]


class _Postgres:
    """PostgreSQL's spellings of what the past reads need."""

    def json_value(self, column: str, field: str) -> str:
        return f"({column}::jsonb -> '{field}')"

    def days_since(self, anchor: str) -> str:
        return (
            "greatest(0.0, extract(epoch FROM (?::timestamptz - "
            f"({anchor})::timestamptz))::float8 / 86400.0)"
        )

    def at_most(self, value: str, bound: str) -> str:
        return f"least({value}, {bound})"

    def kind_conditions(
        self, kind: str, conditions: Sequence[Condition], live: str, attributes: str
    ) -> Where:
        from embornal.storage.postgres.kinds import conditions_sql

        where, params = conditions_sql(kind, conditions, live, attributes)
        return where, tuple(params)

    def keyword_rows(
        self, store: Any, terms: list[str], candidates: int, among: Among
    ) -> list[Any]:
        from embornal.storage.postgres import keyword

        kept = keyword.Kept(among.where(store._under_sql(among.under)), "f.id AS id")
        return keyword.ranked_rows(store._rows, terms, candidates, kept)


#: PostgreSQL's dialect of the past reads.
PG: PastDialect = _Postgres()


class PgPast(Past):
    """The reads of a :class:`~embornal.storage.postgres.store.PostgresStore` at ``at``;
    satisfies ``PastReads``."""

    dialect = PG
