"""Connections to PostgreSQL: the pool, rows read by name or place, the store's SQL
dialect (``?`` placeholders, as the backend-free query builders write them), and driver
errors turned into ours."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from embornal.errors import ConcurrencyError, DatabaseBusy, EmbornalError, StorageError

__all__ = [
    "Conn",
    "Dialect",
    "DriverError",
    "Row",
    "execute",
    "open_pool",
    "pg_sql",
    "row_factory",
    "rows",
    "translate",
]

Conn = psycopg.Connection[Any]
DriverError = psycopg.Error
#: The advisory lock every write transaction holds: writers take positions in commit order.
WRITE_LOCK = 0x656D626F  # "embo"
#: The advisory lock of the migrations: one process migrates at a time.
MIGRATION_LOCK = 0x656D6D69


class Row(tuple[Any, ...]):
    """A result row read by column name or by place (as SQLite's rows are)."""

    __slots__ = ()
    _names: tuple[str, ...] = ()
    _index: dict[str, int] = {}  # noqa: RUF012 - each result set's subclass sets its own

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


@lru_cache(maxsize=512)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    index = {n: i for i, n in enumerate(names)}
    return type("Row", (Row,), {"__slots__": (), "_names": names, "_index": index})


def row_factory(cursor: Any) -> Any:
    """psycopg's row factory: each row a :class:`Row` of the result set's columns."""
    description = cursor.description
    if description is None:
        return tuple
    cls = _row_class(tuple(d.name for d in description))
    return cls


_IS_PARAM = re.compile(r"\bIS \?")
_WHERE_ONE = re.compile(r"\bWHERE 1(?=\s+(?:AND|ORDER|GROUP|LIMIT)\b|\s*$)")
_INDEXED_BY = re.compile(r"\s+INDEXED BY \w+")
_JSON_FIELD = re.compile(r"json_extract\(([\w.]+), '\$\.(\w+)'\)")
_CROSS_ON = re.compile(r"\bCROSS JOIN (\w+ \w+) ON\b")
_JSON_OBJECT = re.compile(r"\bjson_object\(([^()]*)\)")
_JSON_IDS = "(SELECT value FROM json_each(?))"


@lru_cache(maxsize=2048)
def pg_sql(sql: str) -> str:
    """A query of the backend-free builders (``?`` placeholders) in psycopg's form: ``%``
    doubled, ``IS ?`` as ``IS NOT DISTINCT FROM``, a constant ``WHERE 1`` as ``WHERE TRUE``,
    no ``INDEXED BY`` hint, ``CROSS JOIN t a ON`` as ``JOIN`` (SQLite's order hint),
    ``json_extract(col, '$.field')`` as ``col::jsonb ->> 'field'``
    (text: the shared builders compare ids), ``json_object(…)`` of plain columns as
    ``json_build_object(…)::text``, ``instr`` as ``strpos``, no unary ``+``
    (SQLite's "not this index"), a JSON list of ids bound as ``json_each(?)`` read by
    ``jsonb_array_elements_text``, ``group_concat`` as ``string_agg``, each ``?`` a ``%s``.
    The builders put no ``?`` inside a string literal."""
    sql = _IS_PARAM.sub("IS NOT DISTINCT FROM ?", sql.replace("%", "%%"))
    sql = _WHERE_ONE.sub("WHERE TRUE", sql)
    sql = _INDEXED_BY.sub("", sql)  # SQLite's index hints: PostgreSQL's planner chooses
    sql = _CROSS_ON.sub(r"JOIN \1 ON", sql)  # SQLite's "join in this order" likewise
    sql = _JSON_FIELD.sub(r"(\1::jsonb ->> '\2')", sql).replace("instr(", "strpos(")
    sql = _JSON_OBJECT.sub(r"(json_build_object(\1)::text)", sql)
    sql = sql.replace(" +type = ", " type = ")
    sql = sql.replace(_JSON_IDS, "(SELECT jsonb_array_elements_text(?::jsonb))")
    sql = sql.replace("group_concat(", "string_agg(")
    return sql.replace("?", "%s")


def execute(conn: Conn, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
    """Run one ``?``-placeholder statement, through the dialect with or without parameters
    (an empty tuple, not None: psycopg then reads ``%%`` as ``%``)."""
    return conn.execute(pg_sql(sql), tuple(params))


def rows(conn: Conn, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return list(execute(conn, sql, params).fetchall())


class Dialect:
    """A connection as the shared projection handlers use one (``execute`` and
    ``executemany`` with ``?`` placeholders); their SQL goes through :func:`pg_sql`."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return execute(self.conn, sql, params)

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> None:
        if seq:
            with self.conn.cursor() as cur:
                cur.executemany(pg_sql(sql), [tuple(p) for p in seq])


def open_pool(url: str, *, max_size: int = 8) -> ConnectionPool[Any]:
    """A pool of autocommit connections (a write transaction opens its own block)."""
    pool: ConnectionPool[Any] = ConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        kwargs={"autocommit": True, "row_factory": row_factory},
        open=False,
        name="embornal",
    )
    try:
        pool.open(wait=True, timeout=30)
    except DriverError as e:  # a bad URL, no server, a refused login: psycopg errors
        pool.close()
        raise StorageError(
            f"cannot connect to PostgreSQL: {e}",
            hint="Check storage.url (or EMBORNAL_DATABASE_URL) and that the server runs.",
        ) from e
    return pool


def translate(e: BaseException, doing: str) -> EmbornalError:
    """Turn a driver error into ours."""
    if isinstance(e, pg_errors.UniqueViolation) and "events_stream_version" in str(e):
        return ConcurrencyError(f"another writer appended to the same stream while {doing}")
    if isinstance(e, pg_errors.SerializationFailure | pg_errors.DeadlockDetected):
        return ConcurrencyError(f"another writer got in the way while {doing}")
    if isinstance(e, pg_errors.LockNotAvailable | pg_errors.QueryCanceled):
        return DatabaseBusy(f"the database is busy while {doing}: {e}")
    return StorageError(f"database error while {doing}: {e}")
