"""The PostgreSQL store: the event log, its projections and the queries over them, in one
PostgreSQL database (decision 0073).

Connections come from a pool (psycopg 3, ``psycopg_pool``). A write transaction takes one
connection and holds the write lock (a transaction-level advisory lock) from its start, so
writers run one at a time as on SQLite and positions follow commit order; reads outside a
transaction take any pooled connection and run concurrently; a read inside a write
transaction, on its thread, reads through that transaction's connection (its own writes).

Every read takes a :class:`~embornal.domain.access.scope.ReadScope`, compiled as SQLite's
(:mod:`.access_sql`, :func:`pg_scope`): the database applies the access rules on every
read path. Every part of the contract is here, time travel too (decision 0100).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.clock import Clock, format_time
from embornal.domain.events import Event, NewEvent
from embornal.errors import EmbornalError, StorageError
from embornal.lazy import Part
from embornal.storage.common import kind_views
from embornal.storage.common.access import Among, ScopeCache, Visibility, Where
from embornal.storage.common.eventlog import expecting
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.parts import CommonParts
from embornal.storage.common.reads import StoreReads
from embornal.storage.contract.store import FactVector
from embornal.storage.postgres import db, eventlog, keyword
from embornal.storage.postgres import migrations as pg_migrations
from embornal.storage.postgres import vectors as pg_vectors

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from embornal.domain.facts.attributes import Condition
    from embornal.storage.postgres.past import PgPast
    from embornal.storage.postgres.portability import PgPortability
    from embornal.storage.postgres.timeline import PgTimeline

__all__ = ["PostgresStore", "pg_scope"]

T = TypeVar("T")

_BARE_ONE = re.compile(r"(?<![\w.'])1 AND ")


def pg_scope(vis: Visibility) -> Visibility:
    """SQLite's compiled scope as PostgreSQL reads it: its constant terms as booleans
    (``1``/``0`` are integers there); the ``?`` placeholders stay (see :func:`db.pg_sql`)."""
    if vis.sql in ("1", "0"):
        return Visibility("TRUE" if vis.sql == "1" else "FALSE", ())
    return Visibility(_BARE_ONE.sub("TRUE AND ", vis.sql), vis.params)


class _PgScopes(ScopeCache):
    def get(self, scope: ReadScope) -> Visibility:
        return pg_scope(super().get(scope))


class PostgresStore(StoreReads, CommonParts):
    """One open PostgreSQL memory, safe to share between threads. The present reads both
    stores share (:mod:`embornal.storage.common.reads`), the query parts both run
    (:mod:`embornal.storage.common.parts`: typed links, proposals, retention, canon,
    narratives, claims, conflicts, the list) and the history protocol's are mixins written
    once for both, their SQL through the dialect (:func:`.db.pg_sql`)."""

    # the query parts both stores run (CommonParts), and PostgreSQL's own (decision 0186)
    portability: Part[PgPortability] = Part("embornal.storage.postgres.portability:PgPortability")
    timeline: Part[PgTimeline] = Part("embornal.storage.postgres.timeline:PgTimeline")
    _ALWAYS = "TRUE"  # a boolean here (``1`` is an integer)

    def __init__(self, pool: ConnectionPool[Any], url: str, clock: Clock) -> None:
        self._pool = pool
        self.path = url
        self.clock = clock
        self.migrations_applied: list[str] = []
        self._local = threading.local()
        self._scopes = _PgScopes()
        self._vec_tables = False

    @classmethod
    def open(
        cls, url: str, clock: Clock, *, migrate: bool = True, seed: bool = True
    ) -> PostgresStore:
        pool = db.open_pool(url)
        store = cls(pool, url, clock)
        if migrate:
            try:
                with pool.connection() as conn:
                    store.migrations_applied = pg_migrations.migrate(conn, clock, seed=seed)
            except BaseException:
                pool.close()
                raise
        return store

    def close(self) -> None:
        self._pool.close()

    # -- writing ------------------------------------------------------------------------

    @contextmanager
    def transaction(self, doing: str = "writing") -> Iterator[db.Conn]:
        """One write transaction, holding the write lock from its start."""
        if getattr(self._local, "tx", None) is not None:
            raise StorageError(f"a write transaction is already open while {doing}")
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (db.WRITE_LOCK,))
                self._local.tx = conn
                try:
                    yield conn
                finally:
                    self._local.tx = None
        except db.DriverError as e:
            raise db.translate(e, doing) from e

    def append(
        self, tx: db.Conn, events: Sequence[NewEvent], *, expected_version: int | None = None
    ) -> list[Event]:
        try:
            return eventlog.append(tx, expecting(events, expected_version))
        except db.DriverError as e:
            raise db.translate(e, "appending events") from e

    def redact_stream(self, tx: db.Conn, stream_id: str, purge_position: int) -> int:
        """Erase the purged fact's text from its events and every event quoting it
        (proposals, narratives, claims): SQLite's reach, through the dialect."""
        from embornal.storage.common.purge_mentions import redact_purged

        return redact_purged(db.Dialect(tx), stream_id, purge_position, self.clock.now())

    # -- reading ------------------------------------------------------------------------

    def _read(self, read: Callable[[db.Conn], T], doing: str = "reading") -> T:
        try:
            tx = getattr(self._local, "tx", None)
            if tx is not None:
                return read(tx)
            with self._pool.connection() as conn:
                return read(conn)
        except db.DriverError as e:
            raise db.translate(e, doing) from e

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        if "embornal_now()" in sql:  # the shared builders' clock: this store's, inlined
            sql = sql.replace("embornal_now()", f"'{format_time(self.clock.now())}'")
        return self._read(lambda conn: db.rows(conn, sql, params))

    def _live(self) -> str:
        now = format_time(self.clock.now())  # fixed-width digits: safe inline
        return (
            "f.deleted_at IS NULL AND f.superseded_by IS NULL AND "
            f"(f.expires_at IS NULL OR f.expires_at > '{now}')"
        )

    def _ids_in(self, fact_ids: Sequence[str]) -> tuple[str, tuple[Any, ...]]:
        return "f.id = ANY(?)", (list(fact_ids),)

    def _age_days(self, now: str) -> str:
        """The days from ``f``'s strength anchor to ``now`` (the list's strength)."""
        return (
            f"(EXTRACT(EPOCH FROM (CAST('{now}' AS timestamptz) - "
            "CAST(coalesce(f.last_recall_at, f.created_at) AS timestamptz))) / 86400.0)"
        )

    def _visible_ids(self, fact_ids: Sequence[str], vis: Visibility) -> set[str]:
        if not fact_ids or vis.sql == "TRUE":
            return set(fact_ids)
        found = self._rows(
            f"SELECT f.id FROM facts f WHERE f.id = ANY(?) AND ({vis.sql})",
            (list(fact_ids), *vis.params),
        )
        return {r[0] for r in found}

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The live facts 1..``reach`` places before and after each fact on its path,
        places counted over the facts in scope (SQLite's query, the ids bound as an array)."""
        return self.neighbours_where(fact_ids, reach, scope, self._live())

    def neighbours_where(
        self, fact_ids: Sequence[str], reach: int, scope: ReadScope, live: str
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        """:meth:`neighbours` among the facts ``live`` (SQL over ``f``) lets through:
        SQLite's query, read through the dialect (the ids bound as ``json_each``)."""
        from embornal.storage.common.context import neighbours_of

        vis = self._scopes.get(scope)
        return neighbours_of(self._rows, fact_ids, reach, vis.sql, vis.params, live)

    def _kind_sql(
        self, kind: str, conditions: Sequence[Condition], where: str
    ) -> tuple[str, list[Any]]:
        """Compared as JSON values in the stored attributes (no view per kind here:
        ``jsonb`` compares typed values)."""
        from embornal.storage.postgres.kinds import conditions_sql

        kind_where, params = conditions_sql(kind, conditions, self._live())
        return (
            f"SELECT {FACT_COLS} FROM facts f JOIN paths p ON p.id = f.path_id "
            f"WHERE {kind_where} AND {where} ORDER BY f.created_at, f.id LIMIT ?",
            params,
        )

    def _keyword_rows(self, terms: list[str], candidates: int, among: Among) -> list[Any]:
        """Ranked by BM25 (:mod:`.keyword`)."""
        under: Where = ("TRUE", ())
        if among.under is not None and among.under != "/":
            under = (
                "f.path_id IN (SELECT c.descendant_id FROM path_closure c "
                "JOIN paths a ON a.id = c.ancestor_id WHERE a.path = ?)",
                (among.under,),
            )
        kept = keyword.Kept(among.where(under), FACT_COLS)
        return keyword.ranked_rows(self._rows, terms, candidates, kept)

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        if not terms:
            return {}
        found = self._rows("SELECT term, df FROM term_stats WHERE term = ANY(?)", (list(terms),))
        return {r[0]: int(r[1]) for r in found}

    # -- vectors (pgvector, :mod:`.vectors`) ---------------------------------------------

    def has_vector_index(self) -> bool:
        """Whether the vector tables exist; a yes is kept (a new width remakes them at once)."""
        if not self._vec_tables:
            self._vec_tables = self._read(pg_vectors.has_tables)
        return self._vec_tables

    def reads_aside(self) -> bool:  # no write transaction open on this thread
        return getattr(self._local, "tx", None) is None

    def prepare_vectors(self, width: int) -> bool:
        with self.transaction("checking the vector width") as tx:
            pg_vectors.prepare(tx, width)
        return True

    def vector_model(self) -> str | None:
        return self._read(lambda conn: pg_vectors.get_meta(conn, pg_vectors.MODEL_KEY))

    def write_vectors(self, tx: db.Conn, items: Sequence[FactVector], *, model: str) -> None:
        if pg_vectors.get_meta(tx, pg_vectors.MODEL_KEY) is None:
            pg_vectors.set_meta(tx, pg_vectors.MODEL_KEY, model)
        pg_vectors.write(tx, [(i.fact_id, i.vector, i.pieces) for i in items])

    def clear_vectors(self, tx: db.Conn, *, model: str, width: int | None = None) -> None:
        if pg_vectors.has_tables(tx):
            pg_vectors.clear(tx)
        if width is not None:
            pg_vectors.reset_width(tx, width)
        pg_vectors.set_meta(tx, pg_vectors.MODEL_KEY, model)

    def pending_vectors(self, limit: int) -> list[tuple[str, str]]:
        sql, _ = pg_vectors.pending_sql(self.has_vector_index())
        return [(str(r[1]), str(r[2])) for r in self._rows(sql, (limit,))]

    def pending_vector_count(self) -> int:
        _, sql = pg_vectors.pending_sql(self.has_vector_index())
        return int(self._rows(sql, ())[0][0])

    def _nearest_rows(
        self, query: bytes, candidates: int, among: Among, fact_cols: str = FACT_COLS
    ) -> list[Any]:
        """By pgvector's index (:mod:`.vectors`)."""
        if not self.has_vector_index():
            return []
        where = among.where(self._under_sql(among.under))
        return self._read(
            lambda conn: pg_vectors.nearest(conn, query, candidates, where, fact_cols)
        )

    # -- paths ----------------------------------------------------------------------------

    def as_of(self, at: datetime) -> PgPast:
        """The reads of the memory as it was at ``at`` (UTC), from the history tables."""
        from embornal.storage.postgres.past import PgPast

        return PgPast(self, at, kind_views.FACT_ROW_SQL)

    # -- events ---------------------------------------------------------------------------

    def read_stream(self, stream_id: str) -> list[Event]:
        return self._read(lambda conn: eventlog.read_stream(conn, stream_id), "reading the log")

    stream = read_stream

    def read_all(self, *, after: int = 0, until: int | None = None) -> Iterator[Event]:
        last = after
        while True:  # a connection a page: never held between the caller's steps
            read = partial(eventlog.read_page, after=last, until=until, limit=1000)
            page = self._read(read, "reading the event log")
            if not page:
                return
            yield from page
            last = page[-1].position

    def recall_times(self, fact_id: str) -> list[datetime]:
        return self._read(lambda conn: eventlog.recall_times(conn, fact_id), "reading the log")

    def recalls_of(self, fact_id: str, *, limit: int) -> list[Event]:
        return self._read(
            lambda conn: eventlog.recalls_of(conn, fact_id, limit=limit), "reading the log"
        )

    # -- admin -----------------------------------------------------------------------------------

    def rebuild(self, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Replay the whole log into emptied projections, in one write transaction (the
        vectors go with the facts' rows: they wait to be made again, ``memory reindex``)."""
        from embornal.storage.postgres import admin

        with self.transaction("rebuilding projections") as tx:
            return admin.replay(tx, progress)

    def verify(self) -> list[str]:
        """Differences between the projections and a replay of the log (empty: equal),
        found in a savepoint rolled back (:mod:`.admin`)."""
        from embornal.storage.postgres import admin

        with self.transaction("verifying the projections") as tx:
            return admin.differences(tx)

    def erase_in_transaction(self, tx: db.Conn) -> None:
        """Nothing more in the purge's transaction: its projection took the fact's text out
        of every index (tsvector, term rows, vectors); :meth:`compact_after_purge` rewrites
        the tables after it commits."""

    def compact_after_purge(self) -> bool:
        from embornal.storage.postgres import admin

        return self._read(admin.compact, "compacting after a purge")


_ = (FactVector, EmbornalError)  # named in the contract's signatures this backend keeps
