"""Kinds in SQLite: one view per kind with typed columns, expression indexes on hot fields,
and the query of ``find`` over them (docs/model.md, Fact and path; decision 0049).

``facts.attributes`` holds the kind's canonical JSON payload (only schema-valid ones, see
:mod:`embornal.storage.sqlite.projector`) and ``facts.kind_version`` its schema version; both are
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

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence, Set
from datetime import datetime
from operator import itemgetter

from embornal.domain.clock import parse_time
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import Tag
from embornal.hints import TYPE_CHECKING, Any
from embornal.storage.contract.rows import SpineRow
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    from embornal.domain.facts.attributes import Condition
    from embornal.domain.kinds.registry import KindEntry

__all__ = [
    "FACT_COLS",
    "FACT_COLUMNS",
    "FACT_ROW_SQL",
    "HOT_FIELDS",
    "TAGS_NOW_SQL",
    "condition_sql",
    "conditions_sql",
    "create_views",
    "fact_from_row",
    "facts_from_rows",
    "find_page_sql",
    "find_sql",
    "row_attributes",
    "spine_rows",
    "stored_time",
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
_NAME = r"^[a-z][a-z0-9_]{0,31}$"  # compiled by ``re`` on first use (not by a recall)


def view_name(kind: str) -> str:
    if not re.match(_NAME, kind):  # names are inlined into SQL: registered kinds only
        raise ValueError(f"{kind!r} is not a kind name")
    return f"view_{kind}"


def _column(kind: str, field: str) -> str:
    if not re.match(_NAME, field):
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
            # (value, created_at, id): an equality on the hot field reads its matches in
            # find's order, so a page stops at its limit and needs no sort (migration 0017
            # replaced the value-only indexes of 0012)
            conn.execute(f"DROP INDEX IF EXISTS facts_{kind}_{field}")
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS facts_{kind}_{field}_at ON facts "
                f"({_column(kind, field)}, created_at, id) WHERE kind = '{kind}'"
            )


def condition_sql(c: Condition, column: str, attributes: str) -> tuple[str, list[Any]]:
    """One condition of ``find`` as an SQL term and its parameters: ``column`` is the SQL of
    the field's value, ``attributes`` that of the JSON object it is in (for a list field's
    member test). The field's name is checked, since it is inlined."""
    view_name(c.field)  # checks the name
    if c.value is None:
        return f"{column} IS NULL", []
    if c.member:
        member = f"SELECT 1 FROM json_each({attributes}, '$.{c.field}') j WHERE j.value = ?"
        return f"EXISTS ({member})", [c.value]
    return f"{column} = ?", [c.value]


def conditions_sql(
    kind: str, conditions: Sequence[Condition], live: str, attributes: str = "f.attributes"
) -> tuple[str, list[Any]]:
    """The WHERE terms (over ``f``) of live facts of ``kind`` meeting every condition on
    the JSON ``attributes`` (a past version's at a past time), and their parameters: the
    SQLite twin of :func:`embornal.storage.postgres.kinds.conditions_sql`, for a read that
    has no view of the kind (time travel)."""
    view_name(kind)  # a registered kind's name
    where: list[str] = ["f.kind = ?", live]
    params: list[Any] = [kind]
    for c in conditions:
        view_name(c.field)  # checks the name: it is inlined below
        value = f"json_extract({attributes}, '$.{c.field}')"
        if kind == "fact" and c.field == "statement":
            value = f"coalesce({value}, f.content)"
        term, values = condition_sql(c, value, attributes)
        where.append(term)
        params.extend(values)
    return " AND ".join(where), params


def find_sql(
    kind: str, conditions: Sequence[Condition], fact_cols: str, live: str
) -> tuple[str, list[Any]]:
    """The ``SELECT … WHERE`` of ``find`` over ``view_<kind>`` aliased ``f`` (paths ``p``),
    live facts only, and its parameters; the caller adds the scope and the order."""
    where: list[str] = [live]
    params: list[Any] = []
    for c in conditions:
        term, values = condition_sql(c, f"f.{c.field}", "f.attributes")
        where.append(term)
        params.extend(values)
    sql = (
        f"SELECT {fact_cols} FROM {view_name(kind)} f JOIN paths p ON p.id = f.path_id "
        f"WHERE {' AND '.join(where)}"
    )
    return sql, params


def stored_time(text: str) -> datetime:
    """A time as the projection stores it (``2026-11-30T14:00:00.000000Z``, see
    :func:`~embornal.domain.clock.format_time`): read directly, already UTC; any other
    text goes through :func:`~embornal.domain.clock.parse_time`."""
    if len(text) == 27 and text[26] == "Z":
        return datetime.fromisoformat(text)  # Python 3.11+ reads "Z" as UTC
    return parse_time(text)


def find_page_sql(
    kind: str, conditions: Sequence[Condition], fact_cols: str, live: str, where: str
) -> tuple[str, list[Any]]:
    """The whole query of ``find``: :func:`find_sql` and then ``where`` (its parameters
    follow the conditions'), oldest first, then a ``LIMIT ?`` parameter.

    The page is chosen and sorted on narrow rows (seq and the sort key), then its facts
    are read whole in that order: sorting whole rows (content, attributes) in a temporary
    b-tree cost a quarter of a find of 1,000 facts. An equality on a hot field reads its
    index on (value, created_at, id) in that order and stops at the limit."""
    page_cols = "f.seq, f.created_at AS sort_at, f.id AS sort_id"
    inner, params = find_sql(kind, conditions, page_cols, live)
    sql = (
        f"SELECT {fact_cols} FROM ({inner} AND {where} ORDER BY f.created_at, f.id LIMIT ?) page "
        "JOIN facts f ON f.seq = page.seq JOIN paths p ON p.id = f.path_id "
        "ORDER BY page.sort_at, page.sort_id"
    )
    return sql, params


def _defaults() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Fact):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
    return out


_FACT_DEFAULTS = _defaults()
_FACT_FIELD_COUNT = len(dataclasses.fields(Fact))
_set = object.__setattr__


def _new_fact(values: dict[str, Any]) -> Fact:
    """A :class:`Fact` of trusted projection values, without the frozen dataclass's
    per-field ``object.__setattr__`` (a fifth of a ``find`` of 1,000 facts): ``values``
    becomes its ``__dict__``. ``values`` names only fields of Fact; one it leaves out (a
    field added since) takes its default."""
    if len(values) != _FACT_FIELD_COUNT:
        values = {**_FACT_DEFAULTS, **values}
    fact = object.__new__(Fact)
    _set(fact, "__dict__", values)
    return fact


#: The row columns a :class:`Fact` is made of, in the order :func:`facts_from_rows` reads:
#: the columns of ``facts`` every view repeats but ``seq`` (selected first) and
#: ``recorded_at``, with the path in place of its id. :data:`FACT_ROW_SQL` selects them
#: (``path`` from ``paths p``, the rest from ``facts f``).
_ROW_FIELDS = tuple(
    "path" if c == "path_id" else c for c in FACT_COLUMNS if c not in ("seq", "recorded_at")
)
FACT_ROW_SQL = "f.seq, " + ", ".join("p.path" if c == "path" else f"f.{c}" for c in _ROW_FIELDS)
#: The fact's own tags now as the column ``tag_text`` of its row (key US value, RS
#: between, sorted by key then value; migration 0028, written by the projector with the
#: fact): the reads of the present select it after :data:`FACT_ROW_SQL`, with no query of
#: ``fact_tags`` per row (a quarter of the SQL of a find of 1,000 facts; decision 0091).
TAGS_NOW_SQL = "f.tag_text AS tag_text"
#: What a read of the present selects to make its facts (``facts f``, ``paths p``).
FACT_COLS = f"{FACT_ROW_SQL}, {TAGS_NOW_SQL}"
# The C scanner, without loads' checks.
_scan_json: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _json_object(text: str) -> Any:
    """The stored attributes' JSON (written by the projector: an object, no padding)."""
    if text[:1] == "{" and text[-1:] == "}":
        try:
            value, end = _scan_json(text, 0)
        except StopIteration:
            return json.loads(text)  # raises the usual error
        if end == len(text):
            return value
    return json.loads(text)


def _tags_of_text(
    text: str | None, made: dict[str, Tag], sets: dict[str, tuple[Tag, ...]]
) -> tuple[Tag, ...]:
    """The tags of a ``tag_text`` column (:data:`TAGS_NOW_SQL`); ``made`` shares one Tag
    per key and value, ``sets`` one tuple per whole column text (most facts of a result
    set have the same few tags, their owner's above all), across a result set."""
    if not text:
        return ()
    known = sets.get(text)
    if known is not None:
        return known
    out = []
    for pair in text.split("\x1e"):
        tag = made.get(pair)
        if tag is None:
            key, _, value = pair.partition("\x1f")
            tag = made[pair] = Tag(key, value)
        out.append(tag)
    if len(out) > 1:
        out.sort(key=lambda t: t.key)
    sets[text] = found = tuple(out)
    return found


def facts_from_rows(
    rows: Sequence[Any], tags: Mapping[str, tuple[Tag, ...]] | None, hidden: Set[str]
) -> list[Fact]:
    """The facts of rows holding the columns of :data:`FACT_ROW_SQL` (see
    :mod:`embornal.storage.sqlite.store`), each with its own ``tags`` (None: the rows' own
    ``tag_text``, :data:`TAGS_NOW_SQL`); a successor in ``hidden``
    is one the reader may not read, so it is not named. The columns are found by name once
    per result set, then read from each row in one call."""
    if not rows:
        return []
    latest: dict[str, int | None] | None = None  # each kind's latest version, as met
    index = {name: i for i, name in enumerate(rows[0].keys())}
    values = itemgetter(*(index[name] for name in _ROW_FIELDS))
    out: list[Fact] = []
    made: dict[str, Tag] = {}
    tag_sets: dict[str, tuple[Tag, ...]] = {}
    tag_text = itemgetter(index["tag_text"]) if tags is None else None
    for r in rows:
        (
            fact_id,
            path,
            content,
            kind,
            owner,
            created_at,
            last_recall_at,
            recall_count,
            stability_days,
            supersedes_id,
            superseded_by,
            deleted_at,
            purged_at,
            attributes,
            kind_version,
            confidence,
            last_confirmed_at,
            visibility,
            pinned,
            user_weight,
            lifetime,
            lifetime_until,
            expires_at,
        ) = values(r)
        successor_hidden = superseded_by is not None and superseded_by in hidden
        if not attributes:
            shown: dict[str, Any] = {}
        else:
            if latest is None:  # a row with attributes: the kinds' registry, once
                latest = {}
            version = latest.get(kind, -1)
            if version == -1:
                from embornal.domain.kinds.registry import KINDS

                version = latest[kind] = KINDS.latest(kind)
            if kind_version is not None and version == kind_version:
                shown = _json_object(attributes)  # at the latest version: as stored, parsed once
            else:
                from embornal.domain.facts.attributes import read_attributes

                shown = read_attributes(kind, kind_version, _json_object(attributes))
        out.append(
            _new_fact(
                {
                    "id": fact_id,
                    "path": path,
                    "content": content,
                    "kind": kind,
                    "owner": owner,
                    "created_at": stored_time(created_at),
                    "last_recall_at": stored_time(last_recall_at) if last_recall_at else None,
                    "recall_count": int(recall_count),
                    "stability_days": float(stability_days),
                    "supersedes_id": supersedes_id,
                    "superseded_by": None if successor_hidden else superseded_by,
                    "deleted_at": stored_time(deleted_at) if deleted_at else None,
                    "purged_at": stored_time(purged_at) if purged_at else None,
                    "tags": (
                        _tags_of_text(tag_text(r), made, tag_sets)
                        if tag_text is not None
                        else tags.get(fact_id, ())  # type: ignore[union-attr]
                    ),
                    "successor_hidden": successor_hidden,
                    "attributes": shown,
                    "confidence": None if confidence is None else float(confidence),
                    "last_confirmed_at": (
                        stored_time(last_confirmed_at) if last_confirmed_at else None
                    ),
                    "visibility": visibility or "shared",
                    "pinned": bool(pinned),
                    "user_weight": None if user_weight is None else float(user_weight),
                    "lifetime": (
                        "standard" if lifetime is None else _lifetime_text(lifetime, lifetime_until)
                    ),
                    "expires_at": stored_time(expires_at) if expires_at else None,
                    "warnings": (),
                }
            )
        )
    return out


def fact_from_row(r: Any, tags: tuple[Tag, ...], successor_hidden: bool) -> Fact:
    """The fact of one row of :data:`FACT_ROW_SQL`, for a reader who may not read its successor
    when ``successor_hidden``."""
    hidden = {r["superseded_by"]} if successor_hidden and r["superseded_by"] else set()
    return facts_from_rows([r], {r["id"]: tags}, hidden)[0]


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


def _lifetime_text(policy: str | None, until: str | None) -> str:
    """A lifetime's text from its columns (None: a row of a time before lifetimes)."""
    if policy is None:
        return "standard"
    return f"{policy}:{until}" if until is not None else str(policy)


def row_attributes(row: Any) -> dict[str, Any]:
    """The attributes a read shows for a row of ``facts`` (``kind``, ``kind_version``,
    ``attributes``)."""
    from embornal.domain.facts.attributes import read_attributes

    text = row["attributes"]
    stored = _json_object(text) if text else None
    return read_attributes(row["kind"], row["kind_version"], stored)
