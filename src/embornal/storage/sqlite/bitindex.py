"""An in-process packed-bit index of the fact vectors: the coarse step of vector recall.

Each vector is kept as one bit per dimension (1 where the float is > 0, the
quantization of sqlite-vec's ``vec_quantize_binary``), packed into uint64 words:
48 bytes plus an 8-byte seq per fact at 384-d. A query is the Hamming distance
to every code (``np.bitwise_count``, a chunk of codes at a time in buffers that
stay in the cache), and the k nearest seqs come back in any order; the store
re-scores them exactly in SQL with the access filter applied.
The codes are stored column by column (Fortran order), so each word of every
code is one contiguous run: about 6x faster than reducing along short rows.

The index follows the database through ``facts.vec_rev``: every write of an
embedding takes the next revision (``vectors.write_vectors``), so a search
loads only the rows above the revision it already holds, whichever process
wrote them. A maximum below the loaded one (the file was replaced) reloads it
all. Rows whose embedding was cleared, or whose fact is gone, may stay here:
the exact re-score drops them.

numpy (>= 2.0, for ``bitwise_count``) comes with the ``[semantic]`` extra and is
imported on first use; without it :func:`available` is False and the store uses
the ``facts_vec`` table instead.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (start-up: decision 0047)

from embornal.domain.records import record
from embornal.hints import TYPE_CHECKING, Any, Protocol
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["BitIndex", "CoarseIndex", "LiveBitIndex", "OwnWrites", "available", "quantize"]

LOAD_CHUNK = 4096
SCAN_CHUNK = 32_768  # codes XORed and counted at a time (their buffers fit the L2 cache)
SAMPLE = 16_384  # distances sampled to bound the k-th
_AVAILABLE: bool | None = None


def available() -> bool:
    """Whether numpy with ``bitwise_count`` can be imported (checked once)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            import numpy
        except ImportError:
            _AVAILABLE = False
        else:
            _AVAILABLE = hasattr(numpy, "bitwise_count")
    return _AVAILABLE


def quantize(vectors: NDArray[np.float32]) -> NDArray[np.uint64]:
    """Rows of float32 vectors as rows of packed sign bits, zero-padded to whole words."""
    import numpy as np

    bits = np.packbits(vectors > 0, axis=1, bitorder="little")
    pad = -bits.shape[1] % 8
    if pad:
        bits = np.pad(bits, ((0, 0), (0, pad)))
    return np.ascontiguousarray(bits).view(np.uint64)


@record
class BitIndex:
    """Codes of the vectors of ``dims`` floats, one row per seq (``seqs`` sorted, unique;
    ``codes`` of shape [n, words] in Fortran order).

    Never changed in place: :meth:`merged` returns a new index, so a search may run
    while another thread loads the next one.
    """

    dims: int
    seqs: NDArray[np.int64]
    codes: NDArray[np.uint64]

    @classmethod
    def empty(cls, dims: int) -> BitIndex:
        import numpy as np

        words = (dims + 63) // 64
        return cls(dims, np.zeros(0, np.int64), np.zeros((0, words), np.uint64, order="F"))

    def __len__(self) -> int:
        return int(self.seqs.shape[0])

    def merged(self, seqs: NDArray[np.int64], codes: NDArray[np.uint64]) -> BitIndex:
        """This index with the rows of ``seqs`` (unique) set to ``codes``, added or replaced."""
        import numpy as np

        if not len(seqs):
            return self
        pos = np.searchsorted(self.seqs, seqs)
        found = pos < len(self)
        found[found] = self.seqs[pos[found]] == seqs[found]
        all_codes = self.codes.copy(order="F")
        all_codes[pos[found]] = codes[found]
        new = ~found
        if not new.any():
            return BitIndex(self.dims, self.seqs, all_codes)
        all_seqs = np.concatenate([self.seqs, seqs[new]])
        all_codes = np.concatenate([all_codes, codes[new]])
        if (len(self) and seqs[new].min() <= self.seqs[-1]) or not _ascending(seqs[new]):
            order = np.argsort(all_seqs, kind="stable")
            all_seqs, all_codes = all_seqs[order], all_codes[order]
        return BitIndex(self.dims, all_seqs, np.asfortranarray(all_codes))

    def search(self, query: bytes, k: int) -> list[int]:
        """The seqs of the ``k`` codes nearest to ``query`` (float32 bytes), in no order."""
        import numpy as np

        if k <= 0 or not len(self):
            return []
        if k >= len(self):
            return [int(s) for s in self.seqs.tolist()]
        if len(query) != self.dims * 4:
            raise ValueError(f"a {len(query) // 4}-d query for an index of {self.dims}-d codes")
        qcode = quantize(np.frombuffer(query, dtype=np.float32).reshape(1, -1))[0]
        return [int(s) for s in self.seqs[_nearest(_distances(self.codes.T, qcode), k)].tolist()]


def _distances(words: NDArray[np.uint64], qcode: NDArray[np.uint64]) -> NDArray[np.uint16]:
    """The Hamming distance of ``qcode`` to every code (``words``: one row per word),
    ``SCAN_CHUNK`` codes at a time into buffers made once, so the XORs and their bit
    counts stay in the cache and no array of the index's length is made but the result."""
    import numpy as np

    n = words.shape[1]
    out = np.empty(n, np.uint16)
    size = min(SCAN_CHUNK, n)
    xored = np.empty(size, np.uint64)
    counted = np.empty(size, np.uint8)
    for start in range(0, n, size):
        stop = min(n, start + size)
        x, c, acc = xored[: stop - start], counted[: stop - start], out[start:stop]
        np.bitwise_xor(words[0, start:stop], qcode[0], out=x)
        np.bitwise_count(x, out=c)
        np.copyto(acc, c)
        for w in range(1, len(qcode)):
            np.bitwise_xor(words[w, start:stop], qcode[w], out=x)
            np.bitwise_count(x, out=c)
            np.add(acc, c, out=acc)
    return out


def _nearest(distances: NDArray[np.uint16], k: int) -> NDArray[np.intp]:
    """Positions of ``k`` smallest distances (0 < k < len): every position below the
    k-th smallest distance, then the first positions at it, in order (as before:
    ``np.argpartition`` would be about 5x slower).

    The distances are small integers. A strided sample of them guesses a bound above
    the k-th (twice the share of ``k`` in the sample); the positions within it are
    found in one pass (the bound is raised until they are at least ``k``) and counted
    by distance to find the k-th exactly: a count of every distance costs more than
    the scan itself at a million codes."""
    import numpy as np

    n = len(distances)
    sample = distances[:: max(1, n // SAMPLE)]
    enough = min(len(sample), 2 * k * len(sample) // n + 8)
    bound = int(np.searchsorted(np.cumsum(np.bincount(sample)), enough))
    while True:
        pos = np.flatnonzero(distances <= bound)
        if len(pos) >= k:
            break
        bound = 2 * bound + 1
    near = distances[pos]
    kth = int(np.searchsorted(np.cumsum(np.bincount(near)), k))  # the k-th smallest
    below = pos[near < kth]
    tied = pos[near == kth][: k - len(below)]
    return np.concatenate([below, tied])


def _ascending(seqs: NDArray[np.int64]) -> bool:
    return bool(len(seqs) < 2 or (seqs[1:] > seqs[:-1]).all())


class LiveBitIndex:
    """The bit index of one store, kept in step with ``facts.vec_rev`` (thread-safe)."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._state: tuple[BitIndex | None, int] = (None, 0)

    def clear(self) -> None:
        with self._lock:
            self._state = (None, 0)

    def current(self, conn: Connection, dims: int) -> BitIndex:
        """The index with every vector committed up to now, loading what it lacks."""
        return self._current(conn, dims)[0]

    def with_own_writes(self, committed: Connection, tx: Connection, dims: int) -> OwnWrites:
        """For a search inside a write transaction (a store's near-duplicates by meaning):
        the index loaded through ``committed``, another connection of this thread's, so
        that nothing that may yet roll back enters it; and, read through the
        transaction's ``tx``, the facts whose vectors came after it (the transaction's
        own: it holds the write lock), each a candidate whatever its code."""
        index, rev = self._current(committed, dims)
        own = tx.execute(
            "SELECT seq FROM facts WHERE vec_rev > ? AND embedding IS NOT NULL", (rev,)
        ).fetchall()
        return OwnWrites(index, [int(r[0]) for r in own])

    def _current(self, conn: Connection, dims: int) -> tuple[BitIndex, int]:
        top = _max_rev(conn)
        index, rev = self._state
        if index is not None and index.dims == dims and top == rev:
            return index, rev
        with self._lock:
            index, rev = self._state
            top = _max_rev(conn)  # again: another thread may have loaded meanwhile
            if index is None or index.dims != dims or top < rev:
                index, rev = BitIndex.empty(dims), 0
            if top > rev:
                # Every revision up to ``top`` was committed when it was read (writers
                # take them in turn), so the load, a moment later, holds them all.
                index, loaded = _load(conn, index, rev)
                rev = max(top, loaded)
            self._state = (index, rev)
            return index, rev


class CoarseIndex(Protocol):
    """What the vector search asks of a coarse index: the candidates near a query."""

    def search(self, query: bytes, k: int) -> list[int]: ...


class OwnWrites:
    """The committed codes' nearest ``k``, and a write transaction's own facts."""

    def __init__(self, index: BitIndex, own: list[int]) -> None:
        self.index = index
        self.own = own

    def search(self, query: bytes, k: int) -> list[int]:
        return [*self.own, *self.index.search(query, k)]


def _max_rev(conn: Connection) -> int:
    row = conn.execute("SELECT max(vec_rev) FROM facts").fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


def _load(conn: Connection, index: BitIndex, since: int) -> tuple[BitIndex, int]:
    """``index`` plus every vector written after revision ``since``; the revision reached."""
    import numpy as np

    cursor = conn.execute(
        "SELECT seq, embedding, vec_rev FROM facts WHERE vec_rev > ? AND embedding IS NOT NULL",
        (since,),
    )
    size = index.dims * 4
    seqs: list[Any] = []
    codes: list[Any] = []
    top = since
    while chunk := cursor.fetchmany(LOAD_CHUNK):
        rows = [r for r in chunk if len(r[1]) == size]  # another width: not this model's
        top = max(top, *(int(r[2]) for r in chunk))
        if not rows:
            continue
        floats = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        codes.append(quantize(floats.reshape(len(rows), index.dims)))
        seqs.append(np.fromiter((r[0] for r in rows), np.int64, len(rows)))
    if not seqs:
        return index, top
    return index.merged(np.concatenate(seqs), np.concatenate(codes)), top
