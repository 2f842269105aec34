"""Kinds in SQLite: one view per kind with typed columns, expression indexes on hot fields,
and the query of ``find`` over them (seed 001 §11).

``facts.attributes`` holds the kind's canonical JSON payload (only schema-valid ones, see
:mod:`embornal.storage.projector`) and ``facts.kind_version`` its schema version; both are
NULL when a fact stores none. ``view_<kind>`` (``view_fact``, ``view_person``…) has every
column of ``facts`` but the embedding and one column per attribute: text, vocabulary
values, dates (``YYYY-MM-DD``) and times (ISO-8601 UTC) as TEXT, numbers as REAL, booleans
as 0/1, lists as JSON arrays. ``view_fact.statement`` is the content when no other
statement is stored. Views are projection artifacts: :func:`create_views` drops and makes
them again (a kind's new schema version ships a migration that calls it).

The hot fields get partial expression indexes (``WHERE kind = '<kind>'``), which the
query planner uses for equality through the view, since the view's own ``WHERE`` names the
kind literally.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import parse_time
from embornal.domain.fact_attributes import Condition, read_attributes
from embornal.domain.facts import Fact
from embornal.domain.tags import Tag
from embornal.storage.connect import Connection
from embornal.storage.contract import SpineRow

if TYPE_CHECKING:
    from embornal.domain.kinds.registry import KindEntry

__all__ = [
    "FACT_COLUMNS",
    "HOT_FIELDS",
    "create_views",
    "fact_from_row",
    "find_sql",
    "row_attributes",
    "spine_rows",
    "view_name",
]

#: The columns of ``facts`` every view repeats (the embedding and vector revision aside).
FACT_COLUMNS = (
    "seq",
    "id",
    "path_id",
    "content",
    "kind",
    "owner",
    "created_at",
    "recorded_at",
    "last_recall_at",
    "recall_count",
    "stability_days",
    "supersedes_id",
    "superseded_by",
    "deleted_at",
    "purged_at",
    "attributes",
    "kind_version",
    "confidence",
    "last_confirmed_at",
    "visibility",
    "pinned",
    "user_weight",
    "lifetime",
    "lifetime_until",
    "expires_at",
)
#: The fields looked up most, indexed per kind.
HOT_FIELDS: dict[str, tuple[str, ...]] = {
    "project": ("status", "name"),
    "goal": ("status",),
    "person": ("full_name",),
    "organization": ("name",),
    "skill": ("name",),
    "contact": ("value",),
    "relationship": ("subject_id", "object_id"),
}
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def view_name(kind: str) -> str:
    if not _NAME.match(kind):  # names are inlined into SQL: registered kinds only
        raise ValueError(f"{kind!r} is not a kind name")
    return f"view_{kind}"


def _column(kind: str, field: str) -> str:
    if not _NAME.match(field):
        raise ValueError(f"{field!r} is not a field name")
    value = f"json_extract(attributes, '$.{field}')"
    if kind == "fact" and field == "statement":
        return f"coalesce({value}, content)"
    return value


def _view_sql(entry: KindEntry, present: frozenset[str]) -> str:
    clash = set(entry.field_names) & set(FACT_COLUMNS)
    if clash:
        raise ValueError(f"{entry.kind} attributes {sorted(clash)} clash with fact columns")
    base = [c for c in FACT_COLUMNS if c in present]
    columns = [*base, *(f"{_column(entry.kind, n)} AS {n}" for n in entry.field_names)]
    return (
        f"CREATE VIEW {view_name(entry.kind)} AS SELECT {', '.join(columns)} "
        f"FROM facts WHERE kind = '{entry.kind}'"
    )


def create_views(conn: Connection) -> None:
    """(Re)make every kind's view and the hot fields' indexes, from the registry, with the
    columns of ``facts`` that exist now: each migration that adds a column remakes them,
    so the views of an older step simply lack the columns of a later one."""
    from embornal.domain.kinds.registry import KINDS

    present = frozenset(r[1] for r in conn.execute("PRAGMA table_info(facts)"))

    for kind in KINDS.kinds():
        name = view_name(kind)
        conn.execute(f"DROP VIEW IF EXISTS {name}")
        conn.execute(_view_sql(KINDS.entry(kind), present))
        for field in HOT_FIELDS.get(kind, ()):
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS facts_{kind}_{field} ON facts "
                f"({_column(kind, field)}) WHERE kind = '{kind}'"
            )


def find_sql(
    kind: str, conditions: Sequence[Condition], fact_cols: str, live: str
) -> tuple[str, list[Any]]:
    """The ``SELECT … WHERE`` of ``find`` over ``view_<kind>`` aliased ``f`` (paths ``p``),
    live facts only, and its parameters; the caller adds the scope and the order."""
    where: list[str] = [live]
    params: list[Any] = []
    for c in conditions:
        column = f"f.{c.field}"
        view_name(c.field)  # checks the name
        if c.value is None:
            where.append(f"{column} IS NULL")
        elif c.member:
            where.append(
                f"EXISTS (SELECT 1 FROM json_each(f.attributes, '$.{c.field}') j WHERE j.value = ?)"
            )
            params.append(c.value)
        else:
            where.append(f"{column} = ?")
            params.append(c.value)
    sql = (
        f"SELECT {fact_cols} FROM {view_name(kind)} f JOIN paths p ON p.id = f.path_id "
        f"WHERE {' AND '.join(where)}"
    )
    return sql, params


def _opt_time(text: str | None) -> Any:
    return parse_time(text) if text else None


def fact_from_row(r: Any, tags: tuple[Tag, ...], successor_hidden: bool) -> Fact:
    """The fact of a row of ``_FACT_COLS`` (see :mod:`embornal.storage.sqlite`), for a
    reader who may not read its successor when ``successor_hidden``."""
    return Fact(
        id=r["id"],
        path=r["path"],
        content=r["content"],
        kind=r["kind"],
        owner=r["owner"],
        created_at=parse_time(r["created_at"]),
        last_recall_at=_opt_time(r["last_recall_at"]),
        recall_count=int(r["recall_count"]),
        stability_days=float(r["stability_days"]),
        supersedes_id=r["supersedes_id"],
        superseded_by=None if successor_hidden else r["superseded_by"],
        deleted_at=_opt_time(r["deleted_at"]),
        purged_at=_opt_time(r["purged_at"]),
        tags=tags,
        successor_hidden=successor_hidden,
        attributes=row_attributes(r),
        confidence=None if r["confidence"] is None else float(r["confidence"]),
        last_confirmed_at=_opt_time(r["last_confirmed_at"]),
        visibility=r["visibility"] or "shared",
        pinned=bool(r["pinned"]),
        user_weight=None if r["user_weight"] is None else float(r["user_weight"]),
        lifetime=_lifetime_text(r["lifetime"], r["lifetime_until"]),
        expires_at=_opt_time(r["expires_at"]),
    )


def spine_rows(
    rows_of: Any, vis: Any, under: tuple[str, tuple[Any, ...]], live: str
) -> list[SpineRow]:
    """The staleness inputs of every live fact ``vis`` lets through, at or below ``under``
    (its SQL and parameters), oldest first (``memory due``)."""
    rows = rows_of(
        "SELECT f.id, f.kind, f.confidence, f.created_at, f.last_confirmed_at, f.lifetime, "
        "json_extract(f.attributes, '$.status') FROM facts f JOIN paths p ON p.id = f.path_id "
        f"WHERE {live} AND f.confidence IS NOT NULL AND {under[0]} AND ({vis.sql}) "
        "ORDER BY f.seq",
        (*under[1], *vis.params),
    )
    return [
        SpineRow(r[0], r[1], float(r[2]), r[3], r[4], r[5], r[6] if isinstance(r[6], str) else None)
        for r in rows
    ]


def _lifetime_text(policy: str, until: str | None) -> str:
    return f"{policy}:{until}" if until is not None else str(policy)


def row_attributes(row: Any) -> dict[str, Any]:
    """The attributes a read shows for a row of ``facts`` (``kind``, ``kind_version``,
    ``attributes``)."""
    text = row["attributes"]
    stored = json.loads(text) if text else None
    return read_attributes(row["kind"], row["kind_version"], stored)
