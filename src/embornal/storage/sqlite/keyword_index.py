"""The keyword index beside a SQLite file (decisions 0164, 0165): tantivy, ranked by FTS5's formula.

An optional extra (``embornal[keyword-index]``). It is a projection of the log kept in
``<file>.keyword/``: one document per row of ``facts_fts`` (a stored fact not purged),
its derived terms (:func:`~embornal.domain.recall.text.fts_document`) under tantivy's
whitespace tokenizer with frequencies, its ``seq`` and its length. ``embornal-keyword.json``
beside tantivy's files is its checkpoint, written after each index commit: the last log
position it holds, the last ``seq``, its document and term counts, the tokenizer version
and the log it belongs to. A keyword search brings it up to the log's head first (the
facts stored since, in one commit; a purge since, or any mismatch: rebuilt from the
facts), so writes cost a store nothing (a tantivy commit costs about 14 ms CPU).

The ranking is FTS5's bm25 (k1 1.2, b 0.75): each term's query boosted by FTS5's idf
over tantivy's. tantivy keeps a length exactly up to :data:`EXACT_LENGTH` terms; a longer
fact's score is an upper bound of its FTS5 score and is rescored exactly from its text. A
window of tantivy's top hits is *certified* down to the hits scoring above the window's
last score (no fact outside it can score that much), ordered by score then newest first
as FTS5 orders them; :mod:`embornal.storage.sqlite.keyword`'s caller filters it against the store
and widens it. Called by :meth:`SqliteStore.keyword_search` for the searches FTS5 would
bound (decision 0122).
"""

from __future__ import annotations

import _thread  # threading's own lock, without importing threading (decision 0047)
import contextlib
import json
import math
import os
import struct
from collections import Counter
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from embornal.domain.events import EventType
from embornal.domain.recall.text import TOKENIZER_VERSION, fts_document

__all__ = [
    "EXACT_LENGTH",
    "SWITCH",
    "KeywordIndex",
    "Ranked",
    "available",
    "discard",
    "index_dir",
]

#: Set to ``off`` to leave the index unused (keyword search stays on FTS5).
SWITCH = "EMBORNAL_KEYWORD_INDEX"
#: The layout of the index and its checkpoint; another one is rebuilt.
FORMAT = 1
#: tantivy stores a field's length exactly up to this many terms (``FIELD_NORMS_TABLE``).
EXACT_LENGTH = 40
_K1, _B = 1.2, 0.75
_META = "embornal-keyword.json"
_CHUNK = 20_000  # facts read and indexed at a time

Rows = Callable[[str, Sequence[Any]], list[Any]]
#: A certified window: (seq, score) best first, and whether it holds every match.
Ranked = tuple[list[tuple[int, float]], bool]


def available() -> bool:
    """Whether tantivy is installed and the index not switched off."""
    if os.environ.get(SWITCH, "").strip().lower() in {"off", "0", "no", "false"}:
        return False
    return find_spec("tantivy") is not None


def index_dir(db_path: str) -> Path:
    return Path(db_path + ".keyword")


def _f32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _fts5_idf(n: int, df: int) -> float:
    return max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)


class KeywordIndex:
    """The index of one database file, opened on first need, shared by its threads."""

    def __init__(self, db_path: str) -> None:
        self.dir = index_dir(db_path)
        self._lock = _thread.allocate_lock()
        self._index: Any = None
        self._schema: Any = None
        self._meta: dict[str, Any] = {}

    # -- keeping it up to date ---------------------------------------------------------

    def current(self, rows_of: Rows) -> Any | None:
        """A searcher holding every fact of the log's head, or None when the index cannot
        be brought there now (tantivy's writer lock held by another process)."""
        with self._lock:
            try:
                head, log_id = _head(rows_of)
                if self._index is None or not self._fits(log_id, head):
                    self._open(log_id, head, rows_of)
                if self._meta["position"] != head:
                    self._catch_up(rows_of, head)
            except (OSError, ValueError, RuntimeError):
                self._index = None  # reopened from its files on next need
                return None
            return self._index.searcher()

    def _fits(self, log_id: str, head: int) -> bool:
        m = self._meta
        return bool(
            m.get("format") == FORMAT
            and m.get("tokenizer") == TOKENIZER_VERSION
            and m.get("log") == log_id
            and int(m.get("position", -1)) <= head
        )

    def _open(self, log_id: str, head: int, rows_of: Rows) -> None:
        import tantivy

        self._index = None
        try:
            self._meta = json.loads((self.dir / _META).read_text("utf-8"))
            if not self._fits(log_id, head):
                raise ValueError("another index")
            index = tantivy.Index.open(str(self.dir))
            if index.searcher().num_docs != int(self._meta["docs"]):
                raise ValueError("committed past its checkpoint")
            self._index, self._schema = index, index.schema
        except (OSError, ValueError, KeyError, TypeError):
            self._rebuild(rows_of, log_id, head)

    def _catch_up(self, rows_of: Rows, head: int) -> None:
        purged = rows_of(
            "SELECT 1 FROM events WHERE type = ? AND position > ? LIMIT 1",
            (EventType.FACT_PURGED, int(self._meta["position"])),
        )
        if purged:  # the purged terms leave the files, and no deleted document is counted
            self._rebuild(rows_of, str(self._meta["log"]), head)
            return
        added = self._add(rows_of, int(self._meta["last_seq"]), fresh=False)
        self._meta["position"] = head
        if added:
            self._write_meta()

    def rebuild(self, rows_of: Rows) -> int:
        """Recreate the index from the facts; return how many documents it holds."""
        with self._lock:
            head, log_id = _head(rows_of)
            self._rebuild(rows_of, log_id, head)
            return int(self._meta["docs"])

    def _rebuild(self, rows_of: Rows, log_id: str, head: int) -> None:
        import shutil  # here, not at the top: a search never removes a folder

        import tantivy

        self._index = None
        fresh = self.dir.with_name(self.dir.name + ".new")
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        sb = tantivy.SchemaBuilder()
        sb.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
        sb.add_unsigned_field("seq", fast=True)
        sb.add_unsigned_field("len", fast=True)
        schema = sb.build()
        self._index, self._schema = tantivy.Index(schema, path=str(fresh)), schema
        self._meta = {
            "format": FORMAT,
            "tokenizer": TOKENIZER_VERSION,
            "log": log_id,
            "position": head,
            "last_seq": 0,
            "docs": 0,
            "tokens": 0,
        }
        self._add(rows_of, 0, fresh=True)
        self._write_meta(fresh)
        self._index = None
        discard(self.dir)
        fresh.rename(self.dir)
        self._index = tantivy.Index.open(str(self.dir))

    def _add(self, rows_of: Rows, after: int, *, fresh: bool) -> int:
        """Index the facts of ``facts_fts`` past ``seq`` ``after``, in one commit (no writer,
        and no commit, when there are none: a head moved by other events)."""
        import tantivy

        def chunk_after(seq: int) -> list[Any]:
            return rows_of(
                "SELECT seq, content FROM facts WHERE seq > ? AND purged_at IS NULL "
                "ORDER BY seq LIMIT ?",
                (seq, _CHUNK),
            )

        chunk, added, last, tokens = chunk_after(after), 0, after, 0
        if chunk:
            writer = self._index.writer(
                heap_size=200_000_000 if fresh else 20_000_000, num_threads=1
            )
            try:
                while chunk:
                    for seq, content in chunk:
                        body = fts_document(content or "")
                        length = body.count(" ") + 1 if body else 0
                        doc = tantivy.Document()
                        doc.add_text("body", body)
                        doc.add_unsigned("seq", int(seq))
                        doc.add_unsigned("len", length)
                        writer.add_document(doc)
                        tokens += length
                    added += len(chunk)
                    last = int(chunk[-1][0])
                    chunk = chunk_after(last) if len(chunk) == _CHUNK else []
                writer.commit()
            except BaseException:
                writer.rollback()
                raise
            finally:
                writer.wait_merging_threads()
        # Writes are serialized, so a fact committed later has a greater seq: none is
        # skipped (a purged one past ``last`` is skipped by each read, and rebuilds).
        self._meta["last_seq"] = last
        self._meta["docs"] += added
        self._meta["tokens"] += tokens
        if added:
            self._index.reload()
        return added

    def _write_meta(self, where: Path | None = None) -> None:
        folder = where or self.dir
        part = folder / (_META + ".part")
        part.write_text(json.dumps(self._meta), "utf-8")
        os.replace(part, folder / _META)

    def differences(self, rows_of: Rows) -> list[str]:
        """The index against ``facts_fts``: the facts one holds and the other does not."""
        searcher = self.current(rows_of)
        if searcher is None:
            return ["keyword index: could not be brought up to date (in use elsewhere)"]
        import tantivy

        n = searcher.num_docs
        hits = searcher.search(tantivy.Query.all_query(), limit=max(n, 1)).hits if n else []
        held = set(searcher.fast_field_values("seq", [a for _, a in hits])) if hits else set()
        fts = {int(r[0]) for r in rows_of("SELECT rowid FROM facts_fts", ())}
        out = []
        if held != fts or n != len(held):
            out.append(
                f"keyword index: {len(held - fts)} facts not in facts_fts, "
                f"{len(fts - held)} missing, {n - len(held)} held twice"
            )
        return out

    # -- ranking -------------------------------------------------------------------------

    def ranked(self, searcher: Any, terms: Sequence[str], depth: int, rows_of: Rows) -> Ranked:
        """tantivy's top ``depth`` for ``terms`` by FTS5's bm25, certified (see the module
        text): (seq, score) best first, newest first among equal scores."""
        import tantivy

        n, (rows, tokens) = searcher.num_docs, _fts5_totals(rows_of)
        if n == 0 or rows == 0:
            return [], True
        # FTS5 keeps counting a deleted row in its totals (not in a term's documents):
        # after a purge its row count and average length are not the index's.
        same = rows == n and tokens == int(self._meta["tokens"])
        df = {t: searcher.doc_freq("body", t) for t in terms}
        parts = []
        for t in terms:
            q = tantivy.Query.term_query(self._schema, "body", t, index_option="freq")
            x = (n - df[t] + 0.5) / (df[t] + 0.5)  # tantivy's idf is ln(1 + x)
            q = tantivy.Query.boost_query(q, _fts5_idf(rows, df[t]) / math.log1p(x))
            parts.append((tantivy.Occur.Should, q))
        query = parts[0][1] if len(parts) == 1 else tantivy.Query.boolean_query(parts)
        hits = searcher.search(query, limit=depth).hits
        if not hits:
            return [], True
        addresses = [a for _, a in hits]
        seqs = searcher.fast_field_values("seq", addresses)
        complete = len(hits) < depth
        floor = _f32(float(hits[-1][0]))
        if not same:  # every hit rescored; tantivy's length average bounds the error
            avg, held = tokens / rows, int(self._meta["tokens"]) / n
            exact = self._exact(rows_of, [int(s) for s in seqs], terms, rows, avg, df)
            order = sorted(exact.items(), key=lambda p: (-p[1], -p[0]))
            if not complete:
                cut = floor * max(1.0, avg / held) * (1 + 1e-6)
                order = [p for p in order if p[1] > cut]
            return order, complete
        scored = {int(s): float(score) for (score, _), s in zip(hits, seqs, strict=True)}
        lengths = searcher.fast_field_values("len", addresses)
        long = [int(s) for s, ln in zip(seqs, lengths, strict=True) if ln > EXACT_LENGTH]
        if long:  # an upper bound: rescored from the text
            scored.update(self._exact(rows_of, long, terms, rows, tokens / rows, df))
        order = sorted(scored.items(), key=lambda p: (-_f32(p[1]), -p[0]))
        if not complete:  # only what no fact outside the window can reach or tie
            order = [p for p in order if _f32(p[1]) > floor]
        return order, complete

    @staticmethod
    def _exact(
        rows_of: Rows,
        seqs: list[int],
        terms: Sequence[str],
        n: int,
        avg: float,
        df: dict[str, int],
    ) -> dict[int, float]:
        """FTS5's bm25 of facts ``seqs`` from their text, over ``n`` rows of ``avg`` terms."""
        out = {}
        for start in range(0, len(seqs), 500):
            chunk = seqs[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for seq, content in rows_of(
                f"SELECT seq, content FROM facts WHERE seq IN ({marks})", chunk
            ):
                words = fts_document(content or "").split(" ")
                tf = Counter(words)
                norm = _K1 * (1 - _B + _B * len(words) / avg)
                out[int(seq)] = sum(
                    _fts5_idf(n, df[t]) * tf[t] * (_K1 + 1) / (tf[t] + norm) for t in terms if tf[t]
                )
        return out

    def discard(self) -> None:
        """Remove the index from the disk (a purge): rebuilt on next need."""
        with self._lock:
            self._index = None
            self._meta = {}
            discard(self.dir)

    def close(self) -> None:
        with self._lock:
            self._index = None


def _head(rows_of: Rows) -> tuple[int, str]:
    """The log's last position and what names the log (its first event)."""
    row = rows_of(
        "SELECT (SELECT coalesce(max(position), 0) FROM events), "
        "(SELECT stream_id || ' ' || recorded_at FROM events ORDER BY position LIMIT 1)",
        (),
    )[0]
    return int(row[0]), str(row[1] or "")


def _fts5_totals(rows_of: Rows) -> tuple[int, int]:
    """FTS5's row count and term count, as its bm25 reads them (its averages record)."""
    found = rows_of("SELECT block FROM facts_fts_data WHERE id = 1", ())
    if not found or not found[0][0]:
        return 0, 0
    data, values, i = bytes(found[0][0]), [], 0
    for _ in range(2):  # SQLite's varints
        v = 0
        for k in range(9):
            b = data[i]
            i += 1
            if k == 8:
                v = (v << 8) | b
                break
            v = (v << 7) | (b & 0x7F)
            if not b & 0x80:
                break
        values.append(v)
    return values[0], values[1]


def discard(folder: Path) -> None:
    """Remove an index directory (a purge's terms leave the disk; rebuilt on next need)."""
    import shutil

    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(folder)
