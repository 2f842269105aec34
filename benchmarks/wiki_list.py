"""The wiki's memory list and whole-memory graph at a few thousand facts (decision 0159).

    python benchmarks/wiki_list.py [--sizes 5000] [--calls 30] [--links-per-fact 2]
                                   [--out benchmarks/results/wiki_list.json]

Each size is a fresh memory (no embedder) of ``scale.py`` facts over 200 paths, 10 % of
them people, then ``links-per-fact`` x size random ``relates_to`` links appended as
``FactLinked`` events (as ``graph.py`` does). Then each page is fetched ``calls`` times
through the wiki's routes (a Starlette test client: routing, the read, the HTML): ``/list``
(newest, 50 a page), ``/list`` filtered (path, kind, strength range, strongest first),
``/list`` page 40, ``/graph`` (the 60 most linked) and ``/graph?n=150``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    latency_summary,
    machine_info,
    parse_sizes,
    results_parser,
    save_results,
)
from benchmarks.graph import _bulk_links, _item
from benchmarks.scale import build_corpus, make_content
from starlette.applications import Starlette
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.interfaces.http.wiki import wiki_routes

SECTION = "Wiki: the memory list and the whole-memory graph"
PAGES = {
    "list": "/list",
    "list_filtered": "/list?under=/area1&kind=fact&smin=0.1&smax=1&sort=strongest",
    "list_page_40": "/list?page=40",
    "graph_60": "/graph",
    "graph_150": "/graph?n=150",
}


def run_size(size: int, calls: int, per_fact: int, seed: int = 17) -> dict[str, Any]:
    import random

    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    clock = FixedClock()
    out: dict[str, Any] = {"facts": size}
    with tempfile.TemporaryDirectory() as tmp, Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
        ids: list[str] = []
        for start in range(0, size, 1000):
            batch = [
                _item(i, rng, make_content(rng, corpus))
                for i in range(start, min(size, start + 1000))
            ]
            ids += [f.id for f in mem.store_many(batch)]
        pairs: set[tuple[str, str]] = set()
        while len(pairs) < per_fact * size:
            a, b = rng.choice(ids), rng.choice(ids)
            if a != b:
                pairs.add((a, b))
        _bulk_links(mem, sorted(pairs), clock)
        out["links"] = len(pairs)
        app = Starlette(routes=wiki_routes(lambda request: mem))
        with TestClient(app) as client:
            for name, url in PAGES.items():
                assert client.get(url).status_code == 200, url  # warm
                samples = []
                for _ in range(calls):
                    t = time.perf_counter_ns()
                    got = client.get(url)
                    samples.append(time.perf_counter_ns() - t)
                out[name + "_ms"] = latency_summary(samples)
                out[name + "_kb"] = round(len(got.content) / 1024, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths (10 % people), random `relates_to` "
        "links; no embedder. Each page fetched through the wiki's routes (test client: "
        "routing, the store's read, the HTML). Measured "
        f"{m['date']} on {m.get('cpu_model') or 'unknown CPU'} ({m.get('cpu_count')} cores "
        f"shared), commit `{m.get('git_commit')}`. Reproduce: `python benchmarks/wiki_list.py`. "
        "Raw: `benchmarks/results/wiki_list.json`.",
        "",
        "| facts | links | page | p50 / p95 ms | HTML KiB |",
        "|---:|---:|---|---:|---:|",
    ]
    for r in report["sizes"]:
        for name, url in PAGES.items():
            t = r[name + "_ms"]
            lines.append(
                f"| {r['facts']:,} | {r['links']:,} | `{url}` | {t['p50']:.1f} / {t['p95']:.1f} "
                f"| {r[name + '_kb']} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "wiki_list.json")
    ap.add_argument("--sizes", default="5000")
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--links-per-fact", type=int, default=2)
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"machine": machine_info(), "sizes": []}
    for size in parse_sizes(ap, args.sizes):
        print(f"[wiki_list] {size:,} facts ...", file=sys.stderr, flush=True)
        report["sizes"].append(run_size(size, args.calls, args.links_per_fact))
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
