"""The SQLite store: the event log, its projections and the queries over them.

It satisfies the storage contract (:class:`embornal.storage.contract.store.Store`). Every
read takes a :class:`~embornal.domain.access.scope.ReadScope`, compiled once per scope into a
:class:`~embornal.storage.common.access.Visibility` — a SQL fragment over the fact alias
``f`` that keeps only what the caller may see — so the access rules are applied by the
database, on every read path.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (start-up: decision 0047)
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.clock import Clock, format_time
from embornal.domain.events import Event, NewEvent
from embornal.domain.recall.text import fts_query
from embornal.hints import TYPE_CHECKING, Any, TypeVar
from embornal.lazy import Part
from embornal.storage.common import context, kind_views
from embornal.storage.common.access import ALL_VISIBLE, Among, ScopeCache, Visibility
from embornal.storage.common.context import LIVE
from embornal.storage.common.eventlog import expecting
from embornal.storage.common.kind_views import FACT_COLS
from embornal.storage.common.parts import CommonParts
from embornal.storage.common.reads import StoreReads
from embornal.storage.contract.rows import FactVector, PathRow
from embornal.storage.sqlite import bitindex, eventlog, keyword, migrations, vectors
from embornal.storage.sqlite.connect import Connection, DriverError, atomic, connect, translate

if TYPE_CHECKING:  # imported where used: opening a store never needs it
    from pathlib import Path

    from embornal.domain.facts.attributes import Condition
    from embornal.storage.common.past import SqlitePast
    from embornal.storage.common.timeline import TimelineQueries
    from embornal.storage.sqlite import rebuild
    from embornal.storage.sqlite.keyword_index import KeywordIndex
    from embornal.storage.sqlite.portability import SqlitePortability

__all__ = ["ALL_VISIBLE", "PathRow", "SqliteStore", "Visibility"]

PURGE_PENDING_KEY = "purge_compaction_pending"
T = TypeVar("T")

# Live: neither forgotten nor superseded, and its lifetime not run out at the clock's now.
_ID_CHUNK = 1_000  # ids bound in one IN (...); far below the driver's limit


#: Above this many facts a term's document count comes from the keyword index even in a
#: process that has not opened it: opening it (tantivy's import, its files) costs some
#: 3-5 ms, about what FTS5's vocabulary takes to read the postings of a term held by most
#: of 300,000 facts (0.9 ms for one held by 61,000 of 100,000). Decision 0188.
DF_FROM_INDEX = 300_000


class SqliteStore(StoreReads, CommonParts):
    """One open database, safe to share between threads.

    Writes go through one connection, serialized by a lock and BEGIN IMMEDIATE.
    Reads run concurrently: each thread reads through its own connection (WAL
    readers), except inside a write transaction, which reads its own writes. The
    thread that opened the store reads through the write connection whenever no
    other thread holds it: a connection drops its page cache each time another one
    writes, so a process that reads and writes in turn (a CLI, an MCP server, a
    reinforcing recall) keeps its cache warm this way; it never waits for the lock.
    """

    # the query parts both stores run (CommonParts), and SQLite's own (decision 0186)
    portability: Part[SqlitePortability] = Part(
        "embornal.storage.sqlite.portability:SqlitePortability"
    )
    timeline: Part[TimelineQueries] = Part("embornal.storage.common.timeline:TimelineQueries")

    def __init__(self, conn: Connection, path: str, clock: Clock) -> None:
        self.conn = conn
        self.path = path
        self.clock = clock
        self._lock = _thread.RLock()
        self._local = _thread._local()
        self._readers: list[Connection] = []
        self._readers_lock = _thread.allocate_lock()  # not the write lock: a reader never waits
        self._shared_reads = path == ":memory:"
        self.migrations_applied: list[str] = []
        self._vec_index = False
        self._bits = bitindex.LiveBitIndex()
        self._keywords: KeywordIndex | None = None  # opened on first need (decision 0165)
        self._owner = _thread.get_ident()
        self._scopes = ScopeCache()  # each read scope compiled once into its SQL filter
        context.use_clock(conn, self._now_text)

    def _now_text(self) -> str:  # ``embornal_now()`` in SQL: has a lifetime run out?
        return format_time(self.clock.now())

    def _reader(self) -> Connection:
        if self._shared_reads or getattr(self._local, "in_tx", False):
            return self.conn
        return self._thread_reader()

    def _thread_reader(self) -> Connection:  # this thread's own: what is committed
        reader = getattr(self._local, "reader", None)
        if reader is None:
            reader = connect(self.path)
            context.use_clock(reader, self._now_text)
            self._local.reader = reader
            with self._readers_lock:
                self._readers.append(reader)
        return reader

    @classmethod
    def open(
        cls, path: str | Path, clock: Clock, *, migrate: bool = True, seed: bool = True
    ) -> SqliteStore:
        """``seed=False``: a new file gets no guide and no default rules (an import's)."""
        from embornal.storage.sqlite.history_fill import fill_in as history_fill

        conn = connect(path)
        store = cls(conn, str(path), clock)
        if migrate:
            try:
                if not seed:
                    from embornal.storage.sqlite.portability import skip_seed

                    skip_seed(conn, clock)
                store.migrations_applied = migrations.migrate(conn, clock)
                store._finish_interrupted_purge()
                history_fill(conn)  # the history of the log before migration 0016
            except BaseException:
                conn.close()
                raise
        return store

    def close(self) -> None:
        with self._lock, self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
            self._local = _thread._local()
            self._bits.clear()
            if self._keywords is not None:
                self._keywords.close()
            self.conn.close()

    # -- writing ---------------------------------------------------------------

    @contextmanager
    def transaction(self, doing: str = "writing") -> Iterator[Connection]:
        """A write transaction: check state and append events inside it."""
        with self._lock, atomic(self.conn, doing) as conn:
            self._local.in_tx = True
            try:
                yield conn
            finally:
                self._local.in_tx = False

    def append(
        self, conn: Connection, events: Sequence[NewEvent], *, expected_version: int | None = None
    ) -> list[Event]:
        return eventlog.append(conn, expecting(events, expected_version))

    def redact_stream(self, conn: Connection, stream_id: str, purge_position: int) -> int:
        """Erase content from the earlier events of a purged fact, and from the proposal
        and claim events that name it; return how many."""
        from embornal.storage.common.purge_mentions import redact_purged

        return redact_purged(conn, stream_id, purge_position, self.clock.now())

    def erase_in_transaction(self, conn: Connection) -> None:
        """Inside a purge: merge the keyword index so deleted terms leave it, and mark the
        file as owing a checkpoint (done after commit, or on the next open after a crash)."""
        conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
        self._discard_keyword_index()  # its files hold the terms too: rebuilt on next need
        from embornal.storage.sqlite import rebuild

        rebuild.drop_work_tables(conn)  # a running rebuild's copies may hold the content
        vectors.set_meta(conn, PURGE_PENDING_KEY, "1")

    def compact_after_purge(self) -> bool:
        """Checkpoint the WAL into the file and truncate it, so erased bytes leave the disk."""
        with self._lock:
            try:
                row = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                complete = bool(row is not None and row[0] == 0)
                if complete:
                    with atomic(self.conn, "finishing a purge"):
                        self.conn.execute("DELETE FROM meta WHERE key = ?", (PURGE_PENDING_KEY,))
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except DriverError as e:
                raise translate(e, "compacting after a purge") from e
            return complete

    def _finish_interrupted_purge(self) -> None:
        row = self.conn.execute("SELECT 1 FROM meta WHERE key = ?", (PURGE_PENDING_KEY,)).fetchone()
        if row is not None:
            with atomic(self.conn, "finishing an interrupted purge"):
                self.conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
            self.compact_after_purge()

    # -- reading facts -------------------------------------------------------------

    def _read(self, read: Callable[[Connection], T], doing: str = "reading") -> T:
        try:
            if _thread.get_ident() == self._owner and self._lock.acquire(blocking=False):
                try:  # the write connection is free: read through it, cache warm
                    return read(self.conn)
                finally:
                    self._lock.release()
            return read(self._reader())
        except DriverError as e:
            raise translate(e, doing) from e

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._read(lambda conn: list(conn.execute(sql, tuple(params)).fetchall()))

    def _live(self) -> str:
        return LIVE

    def _age_days(self, now: str) -> str:
        """The days from the anchor of ``f``'s strength to ``now`` (checked ISO text, safe
        inline), negative for an anchor after it: the list's strength, SQLite's spelling."""
        return f"(julianday('{now}') - julianday(coalesce(f.last_recall_at, f.created_at)))"

    def _ids_in(self, fact_ids: Sequence[str]) -> tuple[str, tuple[Any, ...]]:
        return f"f.id IN ({','.join('?' * len(fact_ids))})", tuple(fact_ids)

    def _visible_ids(self, fact_ids: Sequence[str], vis: Visibility) -> set[str]:
        if not fact_ids or vis.sql == "1":
            return set(fact_ids)
        out: set[str] = set()
        for start in range(0, len(fact_ids), 500):
            chunk = list(fact_ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            rows = self._rows(
                f"SELECT f.id FROM facts f WHERE f.id IN ({marks}) AND ({vis.sql})",
                (*chunk, *vis.params),
            )
            out.update(r[0] for r in rows)
        return out

    def _kind_sql(
        self, kind: str, conditions: Sequence[Condition], where: str
    ) -> tuple[str, list[Any]]:
        """Through ``view_<kind>`` (:func:`~embornal.storage.common.kind_views.find_page_sql`)."""
        return kind_views.find_page_sql(kind, conditions, FACT_COLS, LIVE, where)

    def _keyword_rows(self, terms: list[str], candidates: int, among: Among) -> list[Any]:
        """From the keyword index where it answers exactly (decision 0165), else from FTS5,
        bounded for heavy terms (:mod:`.keyword`)."""
        bound = keyword.bound_of(self._rows, terms, self._last_term_df())
        index = self._keyword_index() if bound is not None else None
        searcher = index.current(self._rows) if index is not None else None
        if index is not None and searcher is not None:  # decision 0165: exact, from the index
            rows = keyword.indexed_rows(
                self._rows,
                lambda depth: index.ranked(searcher, terms, depth, self._rows),
                candidates,
                among,
            )
            if rows is not None:
                return rows
            bound = None  # past its widest window: FTS5's exact ranking
        return keyword.ranked_rows(self._rows, fts_query(terms), candidates, among, bound=bound)

    def _keyword_index(self) -> KeywordIndex | None:
        """The keyword index beside the file (decision 0165), or None: tantivy absent or
        switched off, an in-memory database, or inside a write transaction (the index
        holds what is committed)."""
        if self._shared_reads or getattr(self._local, "in_tx", False):
            return None
        if self._keywords is None:
            from embornal.storage.sqlite import keyword_index  # a large memory's: off start-up

            if not keyword_index.available():
                return None
            self._keywords = keyword_index.KeywordIndex(self.path)
        return self._keywords

    def _discard_keyword_index(self) -> None:
        if self._shared_reads:
            return
        if self._keywords is not None:
            self._keywords.discard()
        else:
            from embornal.storage.sqlite import keyword_index

            keyword_index.discard(keyword_index.index_dir(self.path))

    def neighbours(
        self, fact_ids: Sequence[str], reach: int = 1, scope: ReadScope = EVERYTHING
    ) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The live facts 1..``reach`` places before and after each fact on its path,
        places counted over the facts ``scope`` lets through (a hidden fact takes none)."""
        vis = self._scopes.get(scope)
        return self._read(
            lambda conn: context.neighbours_of(
                lambda sql, bound: conn.execute(sql, tuple(bound)).fetchall(),
                fact_ids,
                reach,
                vis.sql,
                vis.params,
            ),
            "reading neighbouring facts",
        )

    def _recent_of(
        self, under: str | None, where: str, params: Sequence[Any]
    ) -> Callable[[int], list[Any]] | None:
        """Under a path, the walk of the anchor index kept to the subtree
        (:func:`~embornal.storage.common.strongest.recent_in_subtree`)."""
        if under is None or under == "/":
            return None
        from embornal.storage.common.strongest import recent_in_subtree

        return partial(recent_in_subtree, self._rows, FACT_COLS, where, params, under)

    def _nearest_rows(
        self, query: bytes, candidates: int, among: Among, fact_cols: str = FACT_COLS
    ) -> list[Any]:
        """Through the embeddings of ``facts``, the bit index or ``facts_vec`` (a long
        fact's similarity: the mean of its opening piece's and best piece's); see
        :mod:`embornal.storage.sqlite.vector_search`."""
        from embornal.storage.sqlite.vector_search import (
            nearest_rows,  # a model's: off recall's path
        )

        where, params = among.where(self._under_sql(among.under))
        total = self.doc_count()
        return nearest_rows(
            self._rows,
            query,
            candidates,
            (f"f.embedding IS NOT NULL AND {where}", params),
            fact_cols=fact_cols,
            total=total,
            bits=self._bit_index(len(query) // 4) if total > vectors.EXACT_SCAN_LIMIT else None,
            has_index=self.has_vector_index,
        )

    def _bit_index(self, dims: int) -> bitindex.CoarseIndex | None:
        """The in-process bit index, up to date (in a write transaction: the committed
        codes and the transaction's own facts); None without numpy or on a shared
        in-memory database."""
        if self._shared_reads or not bitindex.available():
            return None
        try:
            if getattr(self._local, "in_tx", False):
                return self._bits.with_own_writes(self._thread_reader(), self.conn, dims)
            return self._bits.current(self._reader(), dims)
        except DriverError as e:
            raise translate(e, "loading the vector index") from e

    def has_vector_index(self) -> bool:
        """Whether ``facts_vec`` exists (it is never dropped, so a yes is remembered)."""
        if not self._vec_index:
            try:
                self._vec_index = vectors.has_index(self._reader())
            except DriverError:
                return False
        return self._vec_index

    def reads_aside(self) -> bool:  # no write transaction here, no one shared connection
        return not (self._shared_reads or getattr(self._local, "in_tx", False))

    def prepare_vectors(self, width: int) -> bool:
        """Record the width (or stop on another) and create ``facts_vec`` if sqlite-vec
        is loaded; False when it is not."""
        with self.transaction("checking the vector width") as conn:
            vectors.check_width(conn, width)
            return vectors.ensure_index(conn, width)

    def vector_model(self) -> str | None:
        return self._read(lambda conn: vectors.get_meta(conn, vectors.MODEL_KEY))

    def write_vectors(self, conn: Connection, items: Sequence[FactVector], *, model: str) -> None:
        if vectors.get_meta(conn, vectors.MODEL_KEY) is None:
            vectors.set_meta(conn, vectors.MODEL_KEY, model)
        vectors.write_vectors(
            conn,
            [(v.fact_id, v.vector) for v in items],
            pieces={v.fact_id: v.pieces for v in items},
        )

    def clear_vectors(self, conn: Connection, *, model: str, width: int | None = None) -> None:
        vectors.clear_vectors(conn)
        if width is not None:
            vectors.reset_width(conn, width)
        vectors.set_meta(conn, vectors.MODEL_KEY, model)

    def pending_vectors(self, limit: int) -> list[tuple[str, str]]:
        rows = self._read(lambda conn: vectors.pending_facts(conn, limit))
        return [(str(r["id"]), str(r["content"])) for r in rows]

    def pending_vector_count(self) -> int:
        return self._read(vectors.pending_count)

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        if not terms:
            return {}
        # Decision 0188: an index this store has open counts at once (decision 0165); else
        # FTS5's vocabulary does, unless the memory is large enough for the index's opening
        # to cost less than reading the heaviest term's postings.
        opened = self._keywords is not None
        large = opened or self.doc_count() > DF_FROM_INDEX
        index = self._keyword_index() if large else None
        searcher = index.current(self._rows) if index is not None else None
        if searcher is not None:
            counts = {t: int(searcher.doc_freq("body", t)) for t in terms}
            found = {t: c for t, c in counts.items() if c}
        else:  # facts_fts_vocab counts them by reading every posting
            marks = ",".join("?" * len(terms))
            rows = self._rows(
                f"SELECT term, doc FROM facts_fts_vocab WHERE term IN ({marks})", list(terms)
            )
            found = {r[0]: int(r[1]) for r in rows}
        # The next keyword search of this thread bounds itself on these counts (a term no
        # document holds: 0) instead of counting every posting of its terms again.
        self._local.term_df = {**dict.fromkeys(terms, 0), **found}
        return found

    def _last_term_df(self) -> dict[str, int] | None:
        """The document counts this thread's last ``term_df`` read, once (then None)."""
        known: dict[str, int] | None = getattr(self._local, "term_df", None)
        self._local.term_df = None
        return known

    def as_of(self, at: datetime) -> SqlitePast:
        """The reads of the memory as it was at ``at`` (UTC), from the history tables."""
        from embornal.storage.common.past import SqlitePast

        return SqlitePast(self, at, kind_views.FACT_ROW_SQL)

    # -- events ----------------------------------------------------------------------

    def read_stream(self, stream_id: str) -> list[Event]:
        try:
            return eventlog.read_stream(self._reader(), stream_id)
        except DriverError as e:
            raise translate(e, "reading the event log") from e

    stream = read_stream

    def recall_times(self, fact_id: str) -> list[datetime]:
        try:
            return eventlog.recall_times(self._reader(), fact_id)
        except DriverError as e:
            raise translate(e, "reading the event log") from e

    def recalls_of(self, fact_id: str, *, limit: int) -> list[Event]:
        try:
            return eventlog.recalls_of(self._reader(), fact_id, limit=limit)
        except DriverError as e:
            raise translate(e, "reading the event log") from e

    def read_all(self, *, after: int = 0, until: int | None = None) -> Iterator[Event]:
        try:
            yield from eventlog.read_all(self._reader(), after=after, until=until)
        except DriverError as e:
            raise translate(e, "reading the event log") from e

    # -- admin --------------------------------------------------------------------------

    def rebuild(self, progress: rebuild.Progress | None = None) -> int:
        """Replay the whole log into fresh projections beside the live ones and swap them
        in (writers wait only for the swap); return the number of events replayed."""
        from embornal.storage.sqlite import rebuild

        if self._shared_reads:
            with self.transaction("rebuilding projections") as conn:
                return rebuild.replay_in_place(conn)
        result = rebuild.rebuild_beside(self.path, progress=progress)
        self._discard_keyword_index()  # the facts' seqs may be numbered anew
        index = self._keyword_index()
        if index is not None:
            index.rebuild(self._rows)
        if result.purged:  # the swapped-in keyword index was merged: checkpoint it out
            with self._lock, atomic(self.conn, "finishing a purge"):
                vectors.set_meta(self.conn, PURGE_PENDING_KEY, "1")
            self.compact_after_purge()
        return result.events

    def verify(self) -> list[str]:
        """Differences between the live projections and a copy rebuilt from the log."""
        from embornal.storage.sqlite.verify import compare_with_replay

        if self._shared_reads:
            with self._lock:
                return compare_with_replay(self.conn, self.clock)
        found = compare_with_replay(self.path, self.clock)
        index = self._keyword_index()
        if index is not None and index.dir.exists():  # the keyword index against facts_fts
            found += index.differences(self._rows)
        return found
