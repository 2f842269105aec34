"""The per-term impact ordering in SQLite that ``keyword_engines.py`` measures beside
FTS5 and tantivy (candidate ``sqlite_impact``, decision 0164): each term's postings ordered
by BM25's weight, the top 10 by early termination."""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

__all__ = ["K1", "B", "Scorer", "build_impacts", "impact_search"]

#: FTS5's bm25 constants.
K1, B = 1.2, 0.75


class Scorer(Protocol):
    """The corpus's statistics as FTS5 weighs them (``keyword_engines.Truth``)."""

    docs: list[str]
    avgdl: float

    def idf(self, df: int) -> float: ...


_IMPACT_SCHEMA = """
CREATE TABLE postings (
    term TEXT NOT NULL, tf INTEGER NOT NULL, dl INTEGER NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (term, tf DESC, dl, seq DESC)
) WITHOUT ROWID;
CREATE TABLE terms (term TEXT PRIMARY KEY, df INTEGER NOT NULL, max_tf INTEGER NOT NULL)
    WITHOUT ROWID;
CREATE TABLE docs (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
"""


def build_impacts(path: Path, docs: list[str]) -> tuple[Any, dict[str, Any]]:
    """Each term's postings ordered by (tf descending, length ascending): BM25's weight of
    a posting falls along that order whatever the average length, so the order holds as
    documents are added; the documents' terms for scoring a fact whole."""
    import sqlean

    conn = sqlean.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.executescript(_IMPACT_SCHEMA)
    c0, t0 = time.process_time(), time.perf_counter()
    df: Counter[str] = Counter()
    max_tf: dict[str, int] = {}
    conn.execute("BEGIN")
    for start in range(0, len(docs), 10_000):
        rows = []
        for seq, d in enumerate(docs[start : start + 10_000], start + 1):
            words = d.split()
            for term, tf in Counter(words).items():
                rows.append((term, tf, len(words), seq))
                df[term] += 1
                max_tf[term] = max(tf, max_tf.get(term, 0))
        rows.sort()
        conn.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)", rows)
        conn.executemany(
            "INSERT INTO docs VALUES (?, ?)",
            ((start + 1 + i, d) for i, d in enumerate(docs[start : start + 10_000])),
        )
    conn.executemany(
        "INSERT INTO terms VALUES (?, ?, ?)", ((t, c, max_tf[t]) for t, c in df.items())
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    build = {
        "seconds": round(time.perf_counter() - t0, 2),
        "cpu_seconds": round(time.process_time() - c0, 2),
        "index_bytes": path.stat().st_size,
    }
    return conn, build


def impact_search(conn: Any, truth: Scorer) -> Callable[[list[str], int], list[tuple[int, float]]]:
    """The threshold algorithm over the impact-ordered lists: read each term's next
    postings in turn, score each new fact whole (its terms read by row id), stop when the
    10th score reaches the sum of what each list's rest can still give."""
    dl_min = min(d.count(" ") + 1 for d in truth.docs if d)

    def weight(tf: int, dl: int) -> float:
        return tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / truth.avgdl))

    def run(terms: list[str], limit: int) -> list[tuple[int, float]]:
        marks = ",".join("?" * len(terms))
        stats = {
            str(r[0]): (int(r[1]), int(r[2]))
            for r in conn.execute(
                f"SELECT term, df, max_tf FROM terms WHERE term IN ({marks})", terms
            )
        }
        idf = {t: truth.idf(stats[t][0]) for t in terms}
        lists = {
            t: conn.execute(
                "SELECT tf, dl, seq FROM postings WHERE term = ? ORDER BY tf DESC, dl, seq DESC",
                (t,),
            )
            for t in terms
        }
        rest = {t: idf[t] * weight(stats[t][1], dl_min) for t in terms}
        top: list[tuple[float, int]] = []
        seen: set[int] = set()
        chunk = 32
        while lists:
            for t, cur in list(lists.items()):
                rows = cur.fetchmany(chunk)
                if len(rows) < chunk:
                    del lists[t]
                    rest[t] = 0.0
                if rows:
                    tf, dl, _ = rows[-1]
                    later = weight(tf - 1, dl_min) if tf > 1 else 0.0
                    rest[t] = 0.0 if t not in lists else idf[t] * max(weight(tf, dl), later)
                for _, _, seq in rows:
                    if seq in seen:
                        continue
                    seen.add(seq)
                    body = conn.execute("SELECT body FROM docs WHERE seq = ?", (seq,))
                    words = body.fetchone()[0].split()
                    norm = K1 * (1 - B + B * len(words) / truth.avgdl)
                    score = 0.0
                    for u in terms:
                        tf_u = words.count(u)
                        if tf_u:
                            score += idf[u] * tf_u * (K1 + 1) / (tf_u + norm)
                    item = (score, seq)
                    if len(top) < limit:
                        heapq.heappush(top, item)
                    elif item > top[0]:
                        heapq.heapreplace(top, item)
            chunk = min(chunk * 2, 1024)
            if len(top) == limit and top[0][0] >= sum(rest.values()):
                break
        return [(seq, score) for score, seq in sorted(top, reverse=True)]

    return run
