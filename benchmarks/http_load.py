"""HTTP load benchmark of ``embornal serve``, and the cost of the access filter.

    python benchmarks/http_load.py [--facts 100000] [--clients 8] [--requests 500]
                                   [--filter-queries 300] [--out benchmarks/results/http.json]

1. Bulk-loads ``--facts`` synthetic facts (``Memory.store_many``, batches of 1,000; seeded
   English-like text on ~N/20 topic paths, every fact tagged ``visibility=public`` plus a
   ``team`` and a ``lang`` tag) into a fresh memory in a temporary directory.
2. Starts ``run_server`` in its own process on 127.0.0.1 (port 0) and ``--clients`` client
   processes, each with its own token (its own subject), which start together and send
   ``--requests`` mixed requests over keep-alive connections: 40% recall (1-2 word keyword
   queries; every hit reinforces, so each recall also writes), 30% store, 15% ls, 15% cat.
   Reports requests/s over the whole run (first request to last answer) and p50/p95 per kind;
   any non-2xx answer or transport error counts as an error.
3. Stops the server and checks that every fact a client saw stored (201) is in the file with
   its content: "lost writes" must be 0.
4. The access filter: service-level keyword recall latency (``reinforce=False``, limit 10)
   as the ``default`` subject (``path:/*``, which compiles to no filter at all), as a token's
   subject (its default rules: its own facts and the public ones) and as a subject holding 20
   rules (subtree, exact-path and tag rules, allow and deny), over the same 1-2 word queries,
   interleaved. Target: the 20 rules do not more than double recall latency (p50 and mean).

Writes ``--out`` (JSON) and prints a markdown table. ``client`` is the load client (the HTTP
tests use it too)::

    python benchmarks/http_load.py client --url URL --token TOKEN --requests N --seed S --out F
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, latency_summary, machine_info

SEED = 20261130
BATCH = 1_000
MIX = (("recall", 40), ("store", 30), ("ls", 15), ("cat", 15))
FILTER_TARGET_RATIO = 2.0
SERVE = "import sys; from embornal.interfaces.http import run_server; " + (
    "run_server(db_path=sys.argv[1], port=0, log_level='error')"
)

# -- a seeded corpus --------------------------------------------------------------------------

_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "br", "st", "tr")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "ou")
_CODAS = ("", "", "n", "r", "s", "t", "l", "nd", "st", "ck")
TOPICS = ("projects", "people", "notes", "work", "home", "research", "travel", "reading")


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        syllables = rng.choice((2, 2, 3))
        words.add(
            "".join(
                rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                for _ in range(syllables)
            )
        )
    return sorted(words)


@dataclass
class Corpus:
    words: list[str]
    weights: list[float]
    paths: list[str]
    rng: random.Random

    @classmethod
    def make(cls, n_facts: int, seed: int = SEED) -> Corpus:
        rng = random.Random(seed)
        words = vocabulary(4_000, rng)
        weights = [1.0 / (rank + 1) for rank in range(len(words))]  # Zipf
        paths = []
        for i in range(max(8, n_facts // 20)):
            depth = 1 + i % 3
            parts = [TOPICS[i % len(TOPICS)], *(rng.choice(words) for _ in range(depth))]
            paths.append("/" + "/".join(parts))
        return cls(words, weights, paths, rng)

    def sentence(self) -> str:
        n = self.rng.randint(8, 24)
        return " ".join(self.rng.choices(self.words, self.weights, k=n)).capitalize() + "."

    def query(self) -> str:
        """1-2 words: a common, a medium or a rare one (by Zipf rank)."""
        band = self.rng.choice(((10, 100), (100, 1_000), (1_000, 4_000)))
        k = self.rng.choice((1, 2))
        return " ".join(self.words[self.rng.randrange(*band)] for _ in range(k))


# -- the load client --------------------------------------------------------------------------


def run_client(
    url: str, token: str, requests: int, seed: int, prefix: str, wait_for_go: bool
) -> dict[str, Any]:
    """``requests`` mixed requests; every answer that is not the expected 2xx is an error."""
    import httpx2

    rng = random.Random(seed)
    corpus = Corpus.make(1_000, SEED)
    corpus.rng = rng
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    latencies: dict[str, list[int]] = {k: [] for k in kinds}
    errors: list[str] = []
    stored: list[list[str]] = []
    headers = {"Authorization": f"Bearer {token}"}
    with httpx2.Client(base_url=url, headers=headers, timeout=120) as http:
        http.get("/api/v1/health")  # open the connection before the clock starts
        if wait_for_go:
            print("ready", flush=True)
            sys.stdin.readline()
        started = time.perf_counter()
        for i in range(requests):
            kind = rng.choices(kinds, weights)[0]
            try:
                t0 = time.perf_counter_ns()
                if kind == "store":
                    path = f"{prefix}/t{rng.randrange(8)}"
                    content = f"{corpus.sentence()} marker{seed}x{i}"
                    r = http.post("/api/v1/facts", json={"path": path, "content": content})
                    expected = 201
                elif kind == "recall":
                    own = stored and rng.random() < 0.25
                    q = stored[rng.randrange(len(stored))][2].split()[-1] if own else None
                    params = {"q": q or corpus.query(), "limit": "10"}
                    r = http.get("/api/v1/recall", params=params)
                    expected = 200
                elif kind == "ls":
                    r = http.get("/api/v1/ls", params={"path": prefix if stored else "/"})
                    expected = 200
                else:
                    path = stored[rng.randrange(len(stored))][1] if stored else "/memory"
                    r = http.get("/api/v1/cat", params={"path": path, "limit": "20"})
                    expected = 200
                elapsed = time.perf_counter_ns() - t0
            except Exception as e:  # a transport error is an error of the run
                errors.append(f"{kind}: {type(e).__name__}: {e}")
                continue
            if r.status_code != expected:
                errors.append(f"{kind}: HTTP {r.status_code}: {r.text[:300]}")
                continue
            latencies[kind].append(elapsed)
            if kind == "store":
                stored.append([r.json()["id"], path, content])
        wall = time.perf_counter() - started
    return {"latencies_ns": latencies, "errors": errors, "stored": stored, "wall_s": wall}


# -- a served memory and its clients ----------------------------------------------------------


class Served:
    """``run_server`` in its own process over ``db`` (a file, or a PostgreSQL URL); stopped
    with SIGINT."""

    def __init__(self, db: Path | str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("embornal serve: "):
            self.proc.kill()
            _, err = self.proc.communicate()
            raise RuntimeError(f"the server did not start: {line!r} {err}")
        self.url = line.split()[2].rstrip("/")

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        if self.proc.returncode != 0:
            raise RuntimeError(f"the server exited with {self.proc.returncode}: {err}")
        return err


def run_load(
    url: str | Sequence[str], tokens: Sequence[str], requests: int, workdir: Path, seed: int = SEED
) -> dict[str, Any]:
    """Start one client process per token, release them together, gather their results
    (several servers' URLs: the clients take them in turn)."""
    urls = [url] if isinstance(url, str) else list(url)
    procs = []
    for i, token in enumerate(tokens):
        out = workdir / f"client{i}.json"
        procs.append(
            (
                subprocess.Popen(
                    [
                        sys.executable,
                        str(Path(__file__).resolve()),
                        "client",
                        "--url",
                        urls[i % len(urls)],
                        "--token",
                        token,
                        "--requests",
                        str(requests),
                        "--seed",
                        str(seed + i),
                        "--prefix",
                        f"/load/c{i}",
                        "--out",
                        str(out),
                        "--wait",
                    ],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                ),
                out,
            )
        )
    try:
        for proc, _ in procs:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("a load client did not start")
    except BaseException:
        for proc, _ in procs:
            proc.kill()
            proc.communicate()
        raise
    started = time.perf_counter()
    for proc, _ in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc, _ in procs:
        proc.communicate(timeout=1_800)  # closes the pipes
    wall = time.perf_counter() - started
    results = []
    for proc, out in procs:
        if proc.returncode != 0:
            raise RuntimeError(f"a load client exited with {proc.returncode}")
        results.append(json.loads(out.read_text(encoding="utf-8")))
    latencies: dict[str, list[int]] = {}
    for res in results:
        for kind, values in res["latencies_ns"].items():
            latencies.setdefault(kind, []).extend(values)
    ok = sum(len(v) for v in latencies.values())
    errors = [e for res in results for e in res["errors"]]
    return {
        "clients": len(tokens),
        "requests_per_client": requests,
        "requests": ok + len(errors),
        "errors": len(errors),
        "error_samples": errors[:10],
        "wall_s": round(wall, 3),
        "requests_per_s": round((ok + len(errors)) / wall, 1),
        "latency_ms": {k: latency_summary(v) for k, v in sorted(latencies.items())},
        "stored": [row for res in results for row in res["stored"]],
    }


def lost_writes(db: Path | str, stored: Sequence[Sequence[str]]) -> int:
    """How many facts the clients saw stored are missing from the file (or differ)."""
    from embornal import Memory

    by_path: dict[str, dict[str, str]] = {}
    for fact_id, path, content in stored:
        by_path.setdefault(path, {})[fact_id] = content
    missing = 0
    with Memory.open(db) as memory:
        for path, wanted in by_path.items():
            found = {v.fact.id: v.fact.content for v in memory.cat(path)}
            missing += sum(1 for i, content in wanted.items() if found.get(i) != content)
    return missing


# -- the access filter ------------------------------------------------------------------------


def twenty_rules(subject: str, paths: Sequence[str]) -> list[tuple[str, list[str]]]:
    """20 ``p`` rules: subtree, exact-path and tag rules, allows and denies."""
    topics = sorted({"/" + p.split("/")[1] for p in paths})
    rules: list[tuple[str, list[str]]] = []
    for topic in topics[:6]:
        rules.append(("p", [subject, f"path:{topic}/*", "read", "allow"]))
    for path in paths[10:14]:
        rules.append(("p", [subject, f"path:{path}", "read", "allow"]))
    for tag in ("visibility=public", "team=red", "team=blue", "lang=en"):
        rules.append(("p", [subject, f"tag:{tag}", "read", "allow"]))
    for path in paths[20:23]:
        rules.append(("p", [subject, f"path:{path}/*", "read", "deny"]))
    rules.append(("p", [subject, f"path:{topics[-1]}/*", "read", "deny"]))
    for tag in ("lang=fr", "team=green"):
        rules.append(("p", [subject, f"tag:{tag}", "read", "deny"]))
    assert len(rules) == 20
    return rules


def filter_cost(db: Path, corpus: Corpus, queries: int) -> dict[str, Any]:
    from embornal import Memory

    with Memory.open(db) as memory:
        subject = "ruled"
        for ptype, values in twenty_rules(subject, corpus.paths):
            memory.policy_add(ptype, values)
        memory.token_add("token")  # the default rules of a token: own facts + public ones
        viewers = {
            "default": memory.as_subject("default"),
            "token": memory.as_subject("token"),
            subject: memory.as_subject(subject),
        }
        qs = [corpus.query() for _ in range(queries)]
        for q in qs[:20]:  # warm the caches and the readers
            for m in viewers.values():
                m.recall(q, reinforce=False)
        samples: dict[str, list[int]] = {name: [] for name in viewers}
        hits: dict[str, int] = {name: 0 for name in viewers}
        for i, q in enumerate(qs):
            order = list(viewers.items()) if i % 2 == 0 else list(viewers.items())[::-1]
            for name, m in order:
                t0 = time.perf_counter_ns()
                found = m.recall(q, limit=10, reinforce=False)
                samples[name].append(time.perf_counter_ns() - t0)
                hits[name] += len(found)
        strongest: dict[str, list[int]] = {name: [] for name in viewers}
        for _ in range(20):
            for name, m in viewers.items():
                t0 = time.perf_counter_ns()
                m.recall(None, limit=10, reinforce=False)
                strongest[name].append(time.perf_counter_ns() - t0)
    keyword = {name: latency_summary(v) for name, v in samples.items()}
    ratio_p50 = keyword[subject]["p50"] / keyword["default"]["p50"]
    ratio_mean = keyword[subject]["mean"] / keyword["default"]["mean"]
    return {
        "queries": queries,
        "rules": 20,
        "keyword_recall_ms": keyword,
        "hits": hits,
        "token_ratio_p50": round(keyword["token"]["p50"] / keyword["default"]["p50"], 3),
        "token_ratio_mean": round(keyword["token"]["mean"] / keyword["default"]["mean"], 3),
        "ratio_p50": round(ratio_p50, 3),
        "ratio_mean": round(ratio_mean, 3),
        "target_ratio": FILTER_TARGET_RATIO,
        "meets_target": ratio_p50 <= FILTER_TARGET_RATIO and ratio_mean <= FILTER_TARGET_RATIO,
        "no_query_recall_ms": {name: latency_summary(v) for name, v in strongest.items()},
    }


# -- the benchmark ----------------------------------------------------------------------------


def bulk_load(db: Path, corpus: Corpus, n: int) -> float:
    from embornal import Memory, NewFact

    teams = ("red", "blue", "green")
    langs = ("en", "en", "en", "fr")
    started = time.perf_counter()
    with Memory.open(db) as memory:
        for start in range(0, n, BATCH):
            batch = [
                NewFact(
                    corpus.paths[corpus.rng.randrange(len(corpus.paths))],
                    corpus.sentence(),
                    {
                        "visibility": "public",
                        "team": teams[i % 3],
                        "lang": langs[i % 4],
                    },
                )
                for i in range(start, min(n, start + BATCH))
            ]
            memory.store_many(batch)
    return n / (time.perf_counter() - started)


def markdown(report: dict[str, Any]) -> str:
    load = report["http"]
    lat = load["latency_ms"]
    filt = report["access_filter"]
    kw = filt["keyword_recall_ms"]
    rows = [
        "| measure | value |",
        "|---|---|",
        f"| facts loaded | {report['facts']:,} ({report['bulk_facts_per_s']:,.0f} facts/s) |",
        f"| clients x requests | {load['clients']} x {load['requests_per_client']} |",
        f"| throughput | {load['requests_per_s']:,.0f} requests/s |",
        f"| errors / lost writes | {load['errors']} / {report['lost_writes']} |",
    ]
    for kind in ("recall", "store", "ls", "cat"):
        if kind in lat and lat[kind].get("n"):
            s = lat[kind]
            rows.append(f"| {kind} over HTTP p50 / p95 | {s['p50']:.2f} / {s['p95']:.2f} ms |")
    rows += [
        f"| recall, `default` (1 rule) p50 / p95 | {kw['default']['p50']:.2f} / "
        f"{kw['default']['p95']:.2f} ms |",
        f"| recall, token rules (own + public) p50 / p95 | {kw['token']['p50']:.2f} / "
        f"{kw['token']['p95']:.2f} ms (x{filt['token_ratio_p50']:.2f} p50) |",
        f"| recall, 20 rules p50 / p95 | {kw['ruled']['p50']:.2f} / {kw['ruled']['p95']:.2f} ms |",
        f"| access filter cost (20 rules / default) | x{filt['ratio_p50']:.2f} p50, "
        f"x{filt['ratio_mean']:.2f} mean (target <= x{filt['target_ratio']:.0f}: "
        f"{'met' if filt['meets_target'] else 'NOT met'}) |",
    ]
    return "\n".join(rows)


def run_benchmark(args: argparse.Namespace) -> int:
    from embornal import Memory

    corpus = Corpus.make(args.facts)
    with tempfile.TemporaryDirectory(prefix="embornal-http-") as tmp:
        work = Path(tmp)
        db = work / "memory.db"
        print(f"loading {args.facts:,} facts ...", file=sys.stderr)
        rate = bulk_load(db, corpus, args.facts)
        with Memory.open(db) as memory:
            tokens = [memory.token_add(f"client{i}").token for i in range(args.clients)]
        print(f"serving; {args.clients} clients x {args.requests} requests ...", file=sys.stderr)
        served = Served(db)
        try:
            load = run_load(served.url, tokens, args.requests, work)
        finally:
            served.stop()
        stored = load.pop("stored")
        lost = lost_writes(db, stored)
        print("access filter ...", file=sys.stderr)
        filt = filter_cost(db, corpus, args.filter_queries)
    report = {
        "benchmark": "http_load",
        "machine": machine_info(),
        "facts": args.facts,
        "bulk_facts_per_s": round(rate, 1),
        "http": load,
        "stored_facts_checked": len(stored),
        "lost_writes": lost,
        "access_filter": filt,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(report))
    print(f"\nRaw figures: `benchmarks/results/{out.name}`.")
    return 0 if load["errors"] == 0 and lost == 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    client = sub.add_parser("client", help="one load client (used by the benchmark and tests)")
    client.add_argument("--url", required=True)
    client.add_argument("--token", required=True)
    client.add_argument("--requests", type=int, default=500)
    client.add_argument("--seed", type=int, default=SEED)
    client.add_argument("--prefix", default=f"/load/p{os.getpid()}")
    client.add_argument("--out", required=True)
    client.add_argument("--wait", action="store_true", help="print ready, wait for a line")
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--filter-queries", type=int, default=300)
    parser.add_argument("--out", default=str(REPO_ROOT / "benchmarks" / "results" / "http.json"))
    args = parser.parse_args(argv)
    if args.command == "client":
        result = run_client(args.url, args.token, args.requests, args.seed, args.prefix, args.wait)
        Path(args.out).write_text(json.dumps(result), encoding="utf-8")
        return 0
    return run_benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
