"""A disk cache of embeddings for benchmark reruns (``--embedding-cache FILE``).

An embedding model gives the same vector for the same text every time, so a rerun of a
benchmark — another fusion setting, another granularity that shares texts — need not
embed again. The cache is one SQLite file keyed by the provider's identity, the kind of
text (document or query) and the SHA-256 of the text; it wraps any provider and changes
no result.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["CachedEmbedder"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (identity TEXT NOT NULL, kind TEXT NOT NULL, "
    "digest TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (identity, kind, digest))"
)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """``inner`` with a disk cache in front: only texts never seen are embedded."""

    def __init__(self, inner: Any, path: Path) -> None:
        self.inner = inner
        self.path = path
        # recall embeds its query on a worker thread: one connection, used under a lock
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute(_SCHEMA)
        self._db.commit()
        self.hits = 0
        self.misses = 0

    @property
    def identity(self) -> str:
        return str(self.inner.identity)

    @property
    def dims(self) -> int:
        return int(self.inner.dims)

    def _lookup(self, kind: str, digests: Sequence[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        unique = list(dict.fromkeys(digests))
        with self._lock:
            self._lookup_into(found, kind, unique)
        return found

    def _lookup_into(self, found: dict[str, list[float]], kind: str, unique: list[str]) -> None:
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            marks = ",".join("?" * len(part))
            for digest, blob in self._db.execute(
                f"SELECT digest, vector FROM vectors WHERE identity = ? AND kind = ? "
                f"AND digest IN ({marks})",
                (self.identity, kind, *part),
            ):
                found[digest] = array("f", blob).tolist()

    def _store(self, kind: str, items: Sequence[tuple[str, Sequence[float]]]) -> None:
        rows = [(self.identity, kind, d, array("f", v).tobytes()) for d, v in items]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
            self._db.commit()

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        digests = [_digest(t) for t in texts]
        found = self._lookup("d", digests)
        missing = {d: t for d, t in zip(digests, texts, strict=True) if d not in found}
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            vectors = self.inner.embed_documents(list(missing.values()))
            fresh = list(zip(missing.keys(), vectors, strict=True))
            self._store("d", fresh)
            found.update((d, list(v)) for d, v in fresh)
        return [found[d] for d in digests]

    def embed_query(self, text: str) -> list[float]:
        digest = _digest(text)
        found = self._lookup("q", [digest])
        if digest in found:
            self.hits += 1
            return found[digest]
        self.misses += 1
        vector = list(self.inner.embed_query(text))
        self._store("q", [(digest, vector)])
        return vector

    def close(self) -> None:
        self._db.close()
