"""Scale benchmark of the keyword memory: load, store, recall, disk, memory, CLI start.

    python benchmarks/scale.py [--sizes 1000,10000,100000] [--with-1m]
                               [--out benchmarks/results/scale.json] [--queries 200]

Each size runs in a fresh subprocess (so the peak RSS is that size's own) on a fresh
memory in a temporary directory, and measures:

* bulk load throughput: ``Memory.store_many`` in batches of 1,000 synthetic facts
  (60-200 characters of English-like text drawn from a seeded Zipf vocabulary, on
  ~N/20 paths 1-4 levels deep); only the ``store_many`` calls are timed;
* single ``Memory.store`` latency after the load (200 stores);
* ``Memory.recall`` latency for 1-4 word queries (common, medium, rare and mixed words),
  with ``reinforce=False`` and with the default reinforcing recall, under a subtree,
  and with no query (strongest first);
* database size after a WAL checkpoint, and the size of each table and index;
* peak RSS (``resource.getrusage``).

At the largest size the parent also times ``embornal memory recall WORD --db FILE``
(median of 10 runs after one untimed run). Everything is seeded: two runs store the same
texts on the same paths (fact ids differ, they hold random bits). ``--store DIR`` keeps
each loaded database in ``DIR/N`` and later runs query a copy of it (a 1M load is built
once; its load figures are those of the run that built it).
"""

from __future__ import annotations

import argparse
import bisect
import inspect
import itertools
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    REPO_ROOT,
    latency_summary,
    machine_info,
    rss_now_mb,
    update_results_section,
)

BATCH_SIZE = 1_000
SINGLE_STORES = 200
CLI_RUNS = 10
WARMUP_QUERIES = 10
DEFAULT_SIZES = (1_000, 10_000, 100_000)
ONE_MILLION = 1_000_000
DEFAULT_SEED = 20261130
SECTION = "Scale (keyword)"
START = datetime(2026, 6, 1, tzinfo=UTC)
CONTENT_WORDS = 4_000
QUERY_CLASSES = ("common", "medium", "rare", "mixed")

# The most frequent words of English prose lead the Zipf ranking; documents keep them
# (queries drop the stopwords among them, and the df ceiling drops the others).
FUNCTION_WORDS = (
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "is",
    "that",
    "for",
    "it",
    "on",
    "with",
    "as",
    "was",
    "be",
    "at",
    "by",
    "this",
    "from",
    "or",
    "are",
    "not",
    "but",
    "we",
    "they",
    "has",
    "have",
    "will",
    "can",
    "should",
    "uses",
    "about",
    "after",
    "before",
    "when",
    "which",
    "new",
    "more",
    "also",
    "only",
    "each",
    "all",
    "into",
    "than",
    "then",
    "some",
    "needs",
    "works",
    "keeps",
    "prefers",
)
QUERY_STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
    )
)
TOPICS = (
    "projects",
    "people",
    "notes",
    "preferences",
    "work",
    "home",
    "research",
    "meetings",
    "travel",
    "health",
    "finance",
    "reading",
)
_ONSETS = (
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "br",
    "ch",
    "cl",
    "cr",
    "dr",
    "fl",
    "gr",
    "pl",
    "pr",
    "sh",
    "sl",
    "sp",
    "st",
    "th",
    "tr",
)
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ee", "io", "ou")
_CODAS = ("", "", "", "", "n", "r", "s", "t", "l", "m", "nd", "nt", "st", "ck", "ng", "rk")


@dataclass(frozen=True)
class Target:
    """A target figure: ``key`` (wall time) and ``cpu_key`` are dotted paths into one size."""

    name: str
    key: str
    cpu_key: str
    op: str  # "<=" or ">="
    limit: float
    unit: str
    size: int | None  # None: judged at every size


TARGETS = (
    Target(
        "single store p50 at 100k",
        "single_store_ms.p50",
        "single_store_cpu_ms.p50",
        "<=",
        2.0,
        "ms",
        100_000,
    ),
    Target("bulk load", "bulk.facts_per_s", "bulk.facts_per_cpu_s", ">=", 5_000.0, "facts/s", None),
    Target(
        "keyword recall p50 at 100k",
        "recall_keyword_ms.p50",
        "recall_keyword_cpu_ms.p50",
        "<=",
        10.0,
        "ms",
        100_000,
    ),
    Target(
        "keyword recall p95 at 100k",
        "recall_keyword_ms.p95",
        "recall_keyword_cpu_ms.p95",
        "<=",
        30.0,
        "ms",
        100_000,
    ),
    Target(
        "keyword recall p50 at 100k (reinforcing)",
        "recall_keyword_reinforce_ms.p50",
        "recall_keyword_reinforce_cpu_ms.p50",
        "<=",
        10.0,
        "ms",
        100_000,
    ),
    Target(
        "keyword recall p95 at 100k (reinforcing)",
        "recall_keyword_reinforce_ms.p95",
        "recall_keyword_reinforce_cpu_ms.p95",
        "<=",
        30.0,
        "ms",
        100_000,
    ),
    # A million facts.
    Target(
        "bulk load at 1M (issue 14)",
        "bulk.facts_per_s",
        "bulk.facts_per_cpu_s",
        ">=",
        20_000.0,
        "facts/s",
        ONE_MILLION,
    ),
    Target(
        "keyword recall p50 at 1M",
        "recall_keyword_ms.p50",
        "recall_keyword_cpu_ms.p50",
        "<=",
        15.0,
        "ms",
        ONE_MILLION,
    ),
    Target(
        "no-query recall p50 at 1M",
        "recall_strongest_ms.p50",
        "recall_strongest_cpu_ms.p50",
        "<=",
        5.0,
        "ms",
        ONE_MILLION,
    ),
)
CLI_TARGET_MS = 250.0


# -- synthetic corpus ---------------------------------------------------------------------


class StepClock:
    """A deterministic clock: every reading is one millisecond after the last."""

    def __init__(self, start: datetime, step: timedelta = timedelta(milliseconds=1)) -> None:
        self._now = start
        self._step = step

    def now(self) -> datetime:
        self._now = self._now + self._step
        return self._now


@dataclass(frozen=True)
class Corpus:
    """The vocabulary, its Zipf weights and the path tree of one size."""

    words: tuple[str, ...]  # function words first, then content words, by rank
    cum_weights: tuple[float, ...]
    content: tuple[str, ...]  # content words by rank
    content_cum: tuple[float, ...]
    common: tuple[str, ...]  # the most frequent words a query keeps
    common_cum: tuple[float, ...]
    paths: tuple[str, ...]
    path_cum: tuple[float, ...]


def _zipf_cum(count: int, *, shift: float, s: float) -> tuple[float, ...]:
    return tuple(itertools.accumulate(1.0 / (r + shift) ** s for r in range(count)))


def make_vocabulary(rng: random.Random, size: int) -> list[str]:
    """``size`` distinct pronounceable words of 1-3 syllables."""
    seen: set[str] = set(FUNCTION_WORDS)
    out: list[str] = []
    while len(out) < size:
        syllables = rng.choices((1, 2, 3), weights=(3, 5, 2))[0]
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables)
        )
        if 3 <= len(word) <= 14 and word not in seen:
            seen.add(word)
            out.append(word)
    return out


def make_paths(rng: random.Random, count: int, content: tuple[str, ...]) -> list[str]:
    """``count`` distinct paths 1-4 levels deep with shared prefixes (a topic tree)."""
    pools = {2: content[:60], 3: content[:250], 4: content[:600]}
    found: dict[str, None] = {}
    attempts = 0
    while len(found) < count and attempts < count * 1_000:
        attempts += 1
        depth = rng.choices((1, 2, 3, 4), weights=(1, 3, 4, 2))[0]
        parts = [rng.choice(TOPICS)] + [rng.choice(pools[d]) for d in range(2, depth + 1)]
        found.setdefault("/" + "/".join(parts), None)
    paths = list(found)
    rng.shuffle(paths)
    return paths


def build_corpus(seed: int, n: int) -> Corpus:
    rng = random.Random(f"{seed}:vocabulary")
    content = tuple(make_vocabulary(rng, CONTENT_WORDS))
    words = FUNCTION_WORDS + content
    # Zipf-Mandelbrot: the first ~50 words carry ~40% of the tokens, as in English prose.
    cum = _zipf_cum(len(words), shift=2.7, s=1.0)
    kept = [w for w in words if w not in QUERY_STOPWORDS][:200]
    paths = tuple(make_paths(random.Random(f"{seed}:paths:{n}"), max(5, n // 20), content))
    return Corpus(
        words=words,
        cum_weights=cum,
        content=content,
        content_cum=_zipf_cum(len(content), shift=2.7, s=1.0),
        common=tuple(kept),
        common_cum=_zipf_cum(len(kept), shift=2.7, s=1.0),
        paths=paths,
        path_cum=_zipf_cum(len(paths), shift=5.0, s=0.7),
    )


def _pick(rng: random.Random, items: tuple[str, ...], cum: tuple[float, ...]) -> str:
    return items[bisect.bisect_left(cum, rng.random() * cum[-1])]


def make_content(rng: random.Random, corpus: Corpus) -> str:
    """One sentence of 60-200 characters."""
    target = rng.randint(60, 200)
    words: list[str] = []
    length = -1
    while length < target:
        word = _pick(rng, corpus.words, corpus.cum_weights)
        if length + 1 + len(word) > 200 and length >= 60:
            break
        words.append(word)
        length += 1 + len(word)
        if len(words) > 3 and rng.random() < 0.06:
            words[-1] += ","
    text = " ".join(words).rstrip(",")
    return text[0].upper() + text[1:] + "."


def make_tags(rng: random.Random, corpus: Corpus) -> list[str] | None:
    roll = rng.random()
    if roll < 0.2:
        return ["source=import"]
    if roll < 0.3:
        return [f"project={rng.choice(corpus.content[:40])}", "lang=en"]
    return None


def make_fact_args(rng: random.Random, corpus: Corpus) -> tuple[str, str, list[str] | None]:
    return (
        _pick(rng, corpus.paths, corpus.path_cum),
        make_content(rng, corpus),
        make_tags(rng, corpus),
    )


@dataclass(frozen=True)
class Query:
    kind: str
    text: str
    under: str


def make_queries(rng: random.Random, corpus: Corpus, count: int) -> list[Query]:
    """1-4 word queries cycling through the classes common, medium, rare and mixed."""
    rare_pool = corpus.content[1_500:]
    topics = sorted({p.split("/")[1] for p in corpus.paths})
    out: list[Query] = []
    for i in range(count):
        kind = QUERY_CLASSES[i % len(QUERY_CLASSES)]
        size = rng.randint(1, 4)
        if kind == "common":
            words = [_pick(rng, corpus.common, corpus.common_cum) for _ in range(size)]
        elif kind == "medium":
            words = [_pick(rng, corpus.content, corpus.content_cum) for _ in range(size)]
        elif kind == "rare":
            words = [rng.choice(rare_pool) for _ in range(size)]
        else:
            words = [rng.choice(rare_pool), _pick(rng, corpus.common, corpus.common_cum)]
            words += [_pick(rng, corpus.content, corpus.content_cum) for _ in range(size - 2)]
            rng.shuffle(words)
        out.append(Query(kind, " ".join(words), "/" + rng.choice(topics)))
    return out


# -- one size, in its own process ---------------------------------------------------------


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return round(peak / 2**20 if sys.platform == "darwin" else peak / 1024, 1)


def _disk(db: Path) -> dict[str, Any]:
    import sqlean

    wal = Path(str(db) + "-wal")
    wal_before = wal.stat().st_size if wal.exists() else 0
    conn = sqlean.connect(str(db), isolation_level=None)
    try:
        busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        by_object = {
            str(name): int(size)
            for name, size in conn.execute(
                "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
            )
        }
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        freelist = int(conn.execute("PRAGMA freelist_count").fetchone()[0])
    finally:
        conn.close()
    db_bytes = db.stat().st_size
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    return {
        "db_bytes": db_bytes,
        "wal_bytes": wal_bytes,
        "total_mb": round((db_bytes + wal_bytes) / 2**20, 2),
        "wal_bytes_before_checkpoint": wal_before,
        "checkpoint_busy": int(busy),
        "checkpoint_frames": [int(log_frames), int(done)],
        "page_size": page_size,
        "freelist_pages": freelist,
        "by_object_bytes": by_object,
    }


@dataclass(frozen=True)
class Sample:
    """One timed call: wall and CPU time of this process, and what the call returned."""

    wall_ns: int
    cpu_ns: int
    count: int


def _timed(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Sample:
    """Time ``call(*args, **kwargs)``; a list result counts its items, anything else 1."""
    c0 = time.process_time_ns()
    t0 = time.perf_counter_ns()
    result = call(*args, **kwargs)
    wall = time.perf_counter_ns() - t0
    cpu = time.process_time_ns() - c0
    return Sample(wall, cpu, len(result) if isinstance(result, list) else 1)


def _rng_state(state: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = state
    return (version, tuple(internal), gauss)


def _checkpoint(db: Path) -> None:
    import sqlean

    conn = sqlean.connect(str(db), isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        conn.close()


def _load(n: int, db: Path, clock: StepClock, rng: random.Random, corpus: Corpus) -> dict[str, Any]:
    """Store ``n`` facts through ``Memory.store_many`` in batches; only those calls are
    timed. The memory is closed after."""
    from embornal import Memory
    from embornal.service.results import NewFact

    mem = Memory.open(db, clock=clock)
    year = 365 * 86_400
    batches: list[Sample] = []
    content_chars = 0
    next_report = n // 10
    for start in range(0, n, BATCH_SIZE):
        items = []
        for _ in range(min(BATCH_SIZE, n - start)):
            path, content, tags = make_fact_args(rng, corpus)
            content_chars += len(content)
            at = START - timedelta(seconds=rng.random() * year)
            items.append(NewFact(path, content, tags, at))
        batches.append(_timed(mem.store_many, items))
        if start + BATCH_SIZE >= next_report and n >= 10_000:
            done = min(start + BATCH_SIZE, n)
            so_far = done / (sum(b.wall_ns for b in batches) / 1e9)
            _log(f"{n:>9,}: loaded {done:,} facts ({so_far:,.0f} facts/s so far)")
            next_report += n // 10
    tenth = max(1, len(batches) // 10)

    def rate(part: list[Sample], *, cpu: bool = False) -> float:
        facts = sum(b.count for b in part)
        return round(facts / (sum(b.cpu_ns if cpu else b.wall_ns for b in part) / 1e9), 1)

    bulk = {
        "facts": n,
        "batch_size": BATCH_SIZE,
        "seconds": round(sum(b.wall_ns for b in batches) / 1e9, 3),
        "cpu_seconds": round(sum(b.cpu_ns for b in batches) / 1e9, 3),
        "facts_per_s": rate(batches),
        "facts_per_cpu_s": rate(batches, cpu=True),
        "first_tenth_facts_per_s": rate(batches[:tenth]),
        "last_tenth_facts_per_s": rate(batches[-tenth:]),
        "batch_ms": latency_summary([b.wall_ns for b in batches]),
    }
    rss = rss_now_mb()
    mem.close()
    return {
        "bulk": bulk,
        "content_chars": content_chars,
        "rss_mb": rss,
        "peak_rss_mb": _peak_rss_mb(),
        "loaded_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def measure_size(
    n: int, workdir: Path, n_queries: int, seed: int, store: Path | None = None
) -> dict[str, Any]:
    """Every figure of one size (runs in a worker process). ``store``: a directory that
    keeps the loaded database (``loaded.db``) and its load figures (``load.json``); when it
    holds them, the load is not run again and the queries run on a copy."""
    from embornal import Memory

    started = time.perf_counter_ns()
    corpus = build_corpus(seed, n)
    db = workdir / "memory.db"
    clock = StepClock(START)
    rng = random.Random(f"{seed}:facts:{n}")
    saved = store / "load.json" if store is not None else None
    if saved is not None and saved.exists():
        load = json.loads(saved.read_text(encoding="utf-8"))
        _log(f"{n:>9,}: reusing the database loaded at {load['loaded_at']}")
        shutil.copyfile(saved.parent / "loaded.db", db)
        clock = StepClock(datetime.fromisoformat(load["clock"]))
        rng.setstate(_rng_state(load["rng"]))
    else:
        load = _load(n, db, clock, rng, corpus)
        if saved is not None:
            saved.parent.mkdir(parents=True, exist_ok=True)
            _checkpoint(db)
            shutil.copyfile(db, saved.parent / "loaded.db")
            load |= {"clock": clock.now().isoformat(), "rng": rng.getstate()}
            saved.write_text(json.dumps(load), encoding="utf-8")
        load["reused"] = False
    load.setdefault("reused", True)
    t0 = time.perf_counter_ns()
    mem = Memory.open(db, clock=clock)
    open_ns = time.perf_counter_ns() - t0
    bulk, content_chars, rss_after_load = load["bulk"], load["content_chars"], load["rss_mb"]

    # Single stores at size N.
    stores: list[Sample] = []
    for _ in range(SINGLE_STORES):
        path, content, tags = make_fact_args(rng, corpus)
        stores.append(_timed(mem.store, path, content, tags=tags))

    # Ask for keyword recall by name where the API has modes (``auto`` may pick hybrid).
    mode: dict[str, Any] = {}
    if "mode" in inspect.signature(mem.recall).parameters:
        mode["mode"] = "keyword"
    queries = make_queries(random.Random(f"{seed}:queries"), corpus, n_queries)
    for q in queries[:WARMUP_QUERIES]:
        mem.recall(q.text, reinforce=False, **mode)

    def recall(query: str | None, under: str | None = None, reinforce: bool = False) -> Sample:
        return _timed(mem.recall, query, under=under, reinforce=reinforce, **mode)

    keyword = [recall(q.text) for q in queries]
    keyword_under = [recall(q.text, q.under) for q in queries]
    strongest = [recall(None) for _ in queries]
    strongest_under = [recall(None, q.under) for q in queries]
    keyword_reinforce = [recall(q.text, reinforce=True) for q in queries]

    by_class: dict[str, Any] = {}
    for kind in QUERY_CLASSES:
        picked = [s for q, s in zip(queries, keyword, strict=True) if q.kind == kind]
        by_class[kind] = {
            **latency_summary([s.wall_ns for s in picked]),
            "mean_hits": round(statistics.fmean(s.count for s in picked), 2) if picked else None,
            "zero_hit_queries": sum(1 for s in picked if s.count == 0),
        }
    slowest = sorted(zip(keyword, queries, strict=True), key=lambda x: -x[0].wall_ns)[:5]

    mem.close()
    disk = _disk(db)
    total_facts = n + SINGLE_STORES
    disk["bytes_per_fact"] = round((disk["db_bytes"] + disk["wal_bytes"]) / total_facts, 1)
    figures: dict[str, Any] = {
        "n": n,
        "paths": len(corpus.paths),
        "mean_content_chars": round(content_chars / n, 1),
        "open_ms": round(open_ns / 1e6, 3),
        "bulk": bulk,
    }
    for name, samples in (
        ("single_store", stores),
        ("recall_keyword", keyword),
        ("recall_keyword_reinforce", keyword_reinforce),
        ("recall_keyword_under", keyword_under),
        ("recall_strongest", strongest),
        ("recall_strongest_under", strongest_under),
    ):
        figures[f"{name}_ms"] = latency_summary([s.wall_ns for s in samples])
        figures[f"{name}_cpu_ms"] = latency_summary([s.cpu_ns for s in samples])
    return figures | {
        "recall_keyword_by_class": by_class,
        "recall_keyword_mean_hits": round(statistics.fmean(s.count for s in keyword), 2),
        "recall_keyword_under_mean_hits": round(
            statistics.fmean(s.count for s in keyword_under), 2
        ),
        "slowest_keyword_queries": [
            {"ms": round(s.wall_ns / 1e6, 3), "hits": s.count, "kind": q.kind, "query": q.text}
            for s, q in slowest
        ],
        "queries": len(queries),
        "recall_mode": mode.get("mode", "default"),
        "disk": disk,
        "rss_after_load_mb": rss_after_load,
        "peak_rss_mb": _peak_rss_mb(),
        "load_peak_rss_mb": load["peak_rss_mb"],  # of the process that loaded it
        "load_reused": load["reused"],
        "load_loadavg": load.get("loadavg"),
        "worker_seconds": round((time.perf_counter_ns() - started) / 1e9, 1),
    }


# -- the CLI ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Runs:
    """Repeated runs of one command: wall and CPU (user + system) time of each, in ms."""

    wall_ms: list[float]
    cpu_ms: list[float]

    @property
    def wall_median(self) -> float:
        return round(statistics.median(self.wall_ms), 2)

    @property
    def cpu_median(self) -> float:
        return round(statistics.median(self.cpu_ms), 2)


def _run_times(cmd: list[str], runs: int) -> Runs:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter_ns()
        subprocess.run(cmd, capture_output=True, check=False, timeout=300)
        wall.append(round((time.perf_counter_ns() - t0) / 1e6, 2))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cpu.append(round(used * 1000, 2))
    return Runs(wall, cpu)


def measure_cli(db: Path, word: str, runs: int = CLI_RUNS) -> dict[str, Any]:
    """Wall time of ``embornal memory recall WORD --db FILE``, and floors for context.

    One untimed run first (it also checks that the command works), then ``runs`` timed
    ones; the CPU time (user + system) of each child is kept too, as the machine may be
    shared.
    """
    script = Path(sys.executable).parent / "embornal"
    cmd = [str(script), "memory", "recall", word, "--db", str(db)]
    out: dict[str, Any] = {
        "command": " ".join(["embornal", "memory", "recall", word, "--db", "<db>"]),
        "runs": runs,
        "median_ms": None,
        "cpu_median_ms": None,
        "samples_ms": None,
        "available": False,
        "reason": None,
    }
    # Floors: the interpreter alone, the import, and the same recall through the Python API.
    api = (
        "import sys; from embornal import Memory; "
        "m = Memory.open(sys.argv[1]); m.recall(sys.argv[2]); m.close()"
    )
    for key, floor in (
        ("python_startup", [sys.executable, "-c", "pass"]),
        ("import_embornal", [sys.executable, "-c", "import embornal.service.memory"]),
        ("api_recall_script", [sys.executable, "-c", api, str(db), word]),
    ):
        timed = _run_times(floor, runs)
        out[f"{key}_median_ms"] = timed.wall_median
        out[f"{key}_cpu_median_ms"] = timed.cpu_median
    if not script.exists():
        out["reason"] = f"no console script at {script}"
        return out
    probe = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    if probe.returncode != 0:
        lines = [ln for ln in (probe.stderr or probe.stdout).strip().splitlines() if ln.strip()]
        out["reason"] = (
            f"`embornal memory recall --db` exited {probe.returncode}: "
            + (lines[-1].strip() if lines else "no output")
        )[:300]
        return out
    out["probe_output_lines"] = len(probe.stdout.splitlines())
    timed = _run_times(cmd, runs)
    out["median_ms"] = timed.wall_median
    out["cpu_median_ms"] = timed.cpu_median
    out["samples_ms"] = timed.wall_ms
    out["cpu_samples_ms"] = timed.cpu_ms
    out["available"] = True
    return out


# -- the parent: run the sizes, judge, report ---------------------------------------------


def _dig(data: dict[str, Any], dotted: str) -> float | None:
    cur: Any = data
    for key in dotted.split("."):
        if not isinstance(cur, dict) or key not in cur:
            return None
        cur = cur[key]
    return float(cur) if isinstance(cur, int | float) else None


def _judge(value: float | None, op: str, limit: float) -> bool | None:
    if value is None:
        return None
    return value <= limit if op == "<=" else value >= limit


def _limit_text(op: str, limit: float, unit: str) -> str:
    return f"{op} {limit:,.0f} {unit}" if limit >= 100 else f"{op} {limit} {unit}"


def verdicts(results: dict[int, dict[str, Any]], cli: dict[str, Any] | None) -> list[Any]:
    """Each target judged on wall time (the target) and on CPU time (for a shared machine)."""
    out: list[dict[str, Any]] = []
    for t in TARGETS:
        for size in [t.size] if t.size is not None else sorted(results):
            value = _dig(results[size], t.key) if size in results else None
            cpu = _dig(results[size], t.cpu_key) if size in results else None
            out.append(
                {
                    "target": t.name if t.size is not None else f"{t.name} at {_label(size)}",
                    "limit": _limit_text(t.op, t.limit, t.unit),
                    "value": value,
                    "cpu_value": cpu,
                    "unit": t.unit,
                    "size": size,
                    "pass": _judge(value, t.op, t.limit),
                    "cpu_pass": _judge(cpu, t.op, t.limit),
                }
            )
    if results:
        cli_value = cli.get("median_ms") if cli else None
        cli_cpu = cli.get("cpu_median_ms") if cli else None
        out.append(
            {
                "target": f"`embornal memory recall` wall at {_label(max(results))}",
                "limit": _limit_text("<=", CLI_TARGET_MS, "ms"),
                "value": cli_value,
                "cpu_value": cli_cpu,
                "unit": "ms",
                "size": max(results),
                "pass": _judge(cli_value, "<=", CLI_TARGET_MS),
                "cpu_pass": _judge(cli_cpu, "<=", CLI_TARGET_MS),
            }
        )
    return out


def _label(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def _parse_size(text: str) -> int:
    raw = text.strip().lower().replace("_", "")
    factor = 1
    if raw.endswith("k"):
        raw, factor = raw[:-1], 1_000
    elif raw.endswith("m"):
        raw, factor = raw[:-1], 1_000_000
    value = int(float(raw) * factor)
    if value < 1:
        raise argparse.ArgumentTypeError(f"size must be positive: {text!r}")
    return value


def _pp(stats: dict[str, Any] | None) -> str:
    if not stats or "p50" not in stats:
        return "–"
    return f"{stats['p50']:.2f} / {stats['p95']:.2f}"


def _shown_path(raw: str) -> str:
    path = Path(raw).resolve()
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


def _ms(value: float | None) -> str:
    return "null" if value is None else f"{value:.0f} ms"


def _result_word(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def _fmt_value(value: float | None, unit: str) -> str:
    if value is None:
        return "null"
    return f"{value:,.0f} {unit}" if unit == "facts/s" else f"{value:.2f} {unit}"


def figure_rows(results: dict[int, dict[str, Any]], cli: dict[str, Any] | None) -> list[Any]:
    """(label, one cell per size) for the table."""
    sizes = sorted(results)

    def row(label: str, cell: Any) -> tuple[str, list[str]]:
        return label, [cell(results[s]) for s in sizes]

    rows = [
        row("paths", lambda r: f"{r['paths']:,}"),
        row(
            "bulk load, facts/s (`store_many`, 1,000/batch)",
            lambda r: f"{r['bulk']['facts_per_s']:,.0f}",
        ),
        row(
            "bulk load, facts/s first → last tenth",
            lambda r: (
                f"{r['bulk']['first_tenth_facts_per_s']:,.0f} → "
                f"{r['bulk']['last_tenth_facts_per_s']:,.0f}"
            ),
        ),
        row(
            "bulk load, facts per CPU-second of the process",
            lambda r: f"{r['bulk']['facts_per_cpu_s']:,.0f}",
        ),
        row("bulk load, total s", lambda r: f"{r['bulk']['seconds']:.1f}"),
        row("single `store` p50 / p95 ms", lambda r: _pp(r["single_store_ms"])),
        row(
            "keyword recall p50 / p95 ms (`reinforce=False`)",
            lambda r: _pp(r["recall_keyword_ms"]),
        ),
        row(
            "  … CPU time p50 / p95 ms (`reinforce=False`)",
            lambda r: _pp(r["recall_keyword_cpu_ms"]),
        ),
        row(
            "keyword recall p50 / p95 ms (reinforcing)",
            lambda r: _pp(r["recall_keyword_reinforce_ms"]),
        ),
        row(
            "keyword recall + `under=/topic` p50 / p95 ms",
            lambda r: _pp(r["recall_keyword_under_ms"]),
        ),
        *[
            row(
                f"  … {kind} words p50 / p95 ms",
                lambda r, k=kind: _pp(r["recall_keyword_by_class"][k]),
            )
            for kind in QUERY_CLASSES
        ],
        row("no-query recall (strongest) p50 / p95 ms", lambda r: _pp(r["recall_strongest_ms"])),
        row(
            "no-query recall + `under=/topic` p50 / p95 ms",
            lambda r: _pp(r["recall_strongest_under_ms"]),
        ),
        row(
            "mean hits per keyword query (limit 10)",
            lambda r: f"{r['recall_keyword_mean_hits']:.1f}",
        ),
        row("database on disk, MB (after checkpoint)", lambda r: f"{r['disk']['total_mb']:.1f}"),
        row("bytes per fact", lambda r: f"{r['disk']['bytes_per_fact']:,.0f}"),
        row("peak RSS, MB", lambda r: f"{r['peak_rss_mb']:.0f}"),
    ]
    largest = max(sizes)
    cli_cell = "null"
    if cli is not None and cli.get("median_ms") is not None:
        cli_cell = f"{cli['median_ms']:.0f}"
    rows.append(
        (
            "`embornal memory recall` wall, median ms",
            [cli_cell if s == largest else "" for s in sizes],
        )
    )
    return rows


def markdown(report: dict[str, Any], results: dict[int, dict[str, Any]]) -> str:
    m = report["machine"]
    cli = report.get("cli")
    sizes = sorted(results)
    lines = [
        f"Measured {m['date']} on {m.get('cpu_model') or 'unknown CPU'} "
        f"({m['cpu_count']} CPUs), Python {m['python']}, "
        f"SQLite {m['sqlite_version']} (sqlean.py), commit `{m.get('git_commit')}` "
        f"(working-tree sources {m.get('source_sha256')}), "
        f"load average at start {m.get('loadavg')}, at end {m.get('loadavg_at_end')}. "
        f"Raw figures: `{_shown_path(report['out'])}`.",
        "",
        f"Reproduce: `python benchmarks/scale.py --sizes {','.join(map(str, sizes))} "
        f"--queries {report['config']['queries']}"
        + (" --store DIR" if any(results[s].get("load_reused") for s in sizes) else "")
        + "`. Each size runs in a fresh process on a fresh database; facts are 60–200 "
        "characters of Zipf-distributed synthetic words on ~N/20 paths 1–4 levels deep. "
        f"{report['config']['queries']} queries of 1–4 words (common / medium / rare / mixed), "
        "limit 10. Latencies are per `Memory` call, in process; the single stores and "
        "reinforcing recalls run after the bulk load.",
        "",
        "| metric | " + " | ".join(_label(s) for s in sizes) + " |",
        "|---|" + "---:|" * len(sizes),
    ]
    for label, cells in figure_rows(results, cli):
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    reused = [s for s in sizes if results[s].get("load_reused")]
    if reused:
        lines += [
            "",
            "Loaded once and reused (`--store`): "
            + "; ".join(
                f"{_label(s)} loaded under load average {results[s].get('load_loadavg')} "
                f"(peak RSS of the loading process {results[s].get('load_peak_rss_mb'):.0f} MB)"
                for s in reused
            )
            + ". The bulk-load rows are that load's; the other rows this run's, on a copy.",
        ]
    lines += [
        "",
        "Targets, judged on wall time; the CPU-time columns say what the same code does "
        "when it has a core to itself (the machine may be shared: see the load average).",
        "",
        "| target | limit | measured (wall) | result | CPU time | result on CPU time |",
        "|---|---|---:|---|---:|---|",
    ]
    for v in report["verdicts"]:
        lines.append(
            f"| {v['target']} | {v['limit']} | {_fmt_value(v['value'], v['unit'])} "
            f"| {_result_word(v['pass'])} | {_fmt_value(v['cpu_value'], v['unit'])} "
            f"| {_result_word(v['cpu_pass'])} |"
        )
    if cli is not None:
        lines += [
            "",
            f"CLI at {_label(max(sizes))}, median of {cli['runs']} runs, wall (CPU): "
            f"`embornal memory recall` {_ms(cli.get('median_ms'))} "
            f"({_ms(cli.get('cpu_median_ms'))}); floors: `python -c pass` "
            f"{_ms(cli['python_startup_median_ms'])} ({_ms(cli['python_startup_cpu_median_ms'])}), "
            f"`import embornal.service.memory` {_ms(cli['import_embornal_median_ms'])} "
            f"({_ms(cli['import_embornal_cpu_median_ms'])}), the same recall through the "
            f"Python API in a fresh interpreter {_ms(cli['api_recall_script_median_ms'])} "
            f"({_ms(cli['api_recall_script_cpu_median_ms'])}).",
        ]
        if cli.get("reason"):
            lines += ["", f"CLI figure is null: {cli['reason']}"]
    return "\n".join(lines)


def print_summary(report: dict[str, Any], results: dict[int, dict[str, Any]]) -> None:
    sizes = sorted(results)
    rows = figure_rows(results, report.get("cli"))
    width = max(len(label) for label, _ in rows)
    cell = max(14, *(len(c) for _, cells in rows for c in cells))
    print()
    print(" " * width + "".join(f"{_label(s):>{cell + 2}}" for s in sizes))
    for label, cells in rows:
        print(f"{label:<{width}}" + "".join(f"{c:>{cell + 2}}" for c in cells))
    print()
    for v in report["verdicts"]:
        print(
            f"{_result_word(v['pass']):<5} {v['target']:<48} {v['limit']:<18} "
            f"{_fmt_value(v['value'], v['unit']):>16}   (CPU time "
            f"{_fmt_value(v['cpu_value'], v['unit'])}: {_result_word(v['cpu_pass'])})"
        )
    cli = report.get("cli")
    if cli and cli.get("reason"):
        print(f"\nCLI: {cli['reason']}")


def run_worker(args: argparse.Namespace) -> int:
    workdir = Path(args.workdir)
    store = Path(args.store) if args.store else None
    result = measure_size(args.worker, workdir, args.queries, args.seed, store)
    Path(args.worker_out).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


def run_parent(args: argparse.Namespace) -> int:
    sizes: list[int] = sorted(set(args.sizes))
    if args.with_1m and ONE_MILLION not in sizes:
        sizes.append(ONE_MILLION)
    out_path = Path(args.out)
    started = time.perf_counter_ns()
    report: dict[str, Any] = {
        "benchmark": "scale-keyword",
        "machine": machine_info(),
        "config": {
            "sizes": sizes,
            "queries": args.queries,
            "seed": args.seed,
            "batch_size": BATCH_SIZE,
            "single_stores": SINGLE_STORES,
            "recall_limit": 10,
            "content_words": CONTENT_WORDS,
            "function_words": len(FUNCTION_WORDS),
            "cli_runs": CLI_RUNS,
        },
        "out": str(out_path),
    }
    results: dict[int, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    cli: dict[str, Any] | None = None
    for n in sizes:
        workdir = Path(tempfile.mkdtemp(prefix=f"embornal-scale-{n}-"))
        worker_out = workdir / "result.json"
        _log(f"{n:>9,}: building in {workdir}")
        try:
            proc = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--worker",
                    str(n),
                    "--workdir",
                    str(workdir),
                    "--worker-out",
                    str(worker_out),
                    "--queries",
                    str(args.queries),
                    "--seed",
                    str(args.seed),
                    *(["--store", str(Path(args.store) / str(n))] if args.store else []),
                ],
                check=False,
            )
            if proc.returncode != 0 or not worker_out.exists():
                errors[str(n)] = f"worker exited {proc.returncode}"
                _log(f"{n:>9,}: worker failed ({proc.returncode})")
                continue
            results[n] = json.loads(worker_out.read_text(encoding="utf-8"))
            r = results[n]
            _log(
                f"{n:>9,}: {r['bulk']['facts_per_s']:,.0f} facts/s, store p50 "
                f"{r['single_store_ms']['p50']} ms, recall p50/p95 "
                f"{_pp(r['recall_keyword_ms'])} ms, {r['worker_seconds']} s"
            )
            if n == max(sizes) and not args.no_cli:
                corpus = build_corpus(args.seed, n)
                word = corpus.content[50]  # a medium-frequency word
                _log(f"{n:>9,}: timing the CLI (`embornal memory recall {word}`)")
                cli = measure_cli(workdir / "memory.db", word)
        finally:
            if args.keep:
                _log(f"{n:>9,}: kept {workdir}")
            else:
                shutil.rmtree(workdir, ignore_errors=True)
    report["sizes"] = {str(n): results[n] for n in sorted(results)}
    report["errors"] = errors
    report["cli"] = cli
    report["verdicts"] = verdicts(results, cli)
    report["total_seconds"] = round((time.perf_counter_ns() - started) / 1e9, 1)
    if "loadavg" in report["machine"] and hasattr(os, "getloadavg"):
        report["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    _log(f"wrote {out_path}")
    if results:
        print_summary(report, results)
        if not args.no_markdown:
            update_results_section(Path(args.results_md), SECTION, markdown(report, results))
            _log(f"updated section '{SECTION}' of {args.results_md}")
    return 1 if errors else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--sizes",
        type=lambda s: [_parse_size(x) for x in s.split(",") if x.strip()],
        default=list(DEFAULT_SIZES),
        help="comma-separated fact counts (1000,10k,100k); default 1000,10000,100000",
    )
    parser.add_argument("--with-1m", action="store_true", help="also run 1,000,000 facts")
    parser.add_argument("--out", default=str(REPO_ROOT / "benchmarks" / "results" / "scale.json"))
    parser.add_argument("--queries", type=int, default=200, help="recall queries per size")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--results-md", default=str(REPO_ROOT / "benchmarks" / "RESULTS.md"))
    parser.add_argument("--no-markdown", action="store_true", help="leave RESULTS.md alone")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI timing")
    parser.add_argument("--keep", action="store_true", help="keep the temporary databases")
    parser.add_argument(
        "--store",
        help="keep each size's loaded database under STORE/N and reuse it when there "
        "(the load figures are the first run's)",
    )
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.queries < WARMUP_QUERIES:
        parser.error(f"--queries must be at least {WARMUP_QUERIES}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_worker(args) if args.worker is not None else run_parent(args)


if __name__ == "__main__":
    sys.exit(main())
