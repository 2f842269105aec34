"""The graph at scale: ``links --depth 2`` in a memory of many facts and typed links
(decision 0052; target at 100k facts / 300k links: p50 <= 10 ms).

    python benchmarks/graph.py [--sizes 100000] [--calls 200] [--links-per-fact 3]
                               [--out benchmarks/results/graph.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` facts over 200 paths,
10 % of them people, then ``links-per-fact`` x size random ``about`` links (no self-link,
no duplicate). The bulk of the links is appended as ``FactLinked`` events in batches of
5,000 per transaction, through the store's append and the projector (the path every link
takes after its decision); ``calls`` links are also made one by one through
``Memory.link`` (load, decide, append) and timed. Then ``Memory.links(id, depth=2)``
(both directions, every relation) is timed from ``calls`` random facts, and at depth 1.
"""

from __future__ import annotations

import random
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
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact
from embornal.domain.events import ActorKind, NewEvent
from embornal.domain.events.graph import FactLinked

SECTION = "Graph: links --depth 2 at scale"
_BATCH = 5_000


def _item(i: int, rng: random.Random, text: str) -> NewFact:
    if i % 10 == 0:
        return NewFact(
            f"/people/p{i % 200}", text, kind="person", attributes={"full_name": f"Person {i}"}
        )
    return NewFact(f"/area{i % 200}/t{i % 7}", text)


def _bulk_links(mem: Memory, pairs: list[tuple[str, str]], clock: FixedClock) -> None:
    ctx = mem._ctx  # type: ignore[attr-defined]
    for start in range(0, len(pairs), _BATCH):
        events = [
            NewEvent(
                stream_id=a,
                body=FactLinked(a, "about", b),
                actor="default",
                actor_kind=ActorKind.PERSON,
                recorded_at=clock.now(),
            )
            for a, b in pairs[start : start + _BATCH]
        ]
        ctx.append("loading links", events)


def _timed(call: Any, args: list[Any]) -> dict[str, Any]:
    samples = []
    for arg in args:
        t = time.perf_counter_ns()
        call(arg)
        samples.append(time.perf_counter_ns() - t)
    return latency_summary(samples)


def run_size(size: int, calls: int, per_fact: int, seed: int = 17) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    clock = FixedClock()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=clock) as mem:
            t = time.perf_counter()
            ids: list[str] = []
            for start in range(0, size, 1000):
                batch = [
                    _item(i, rng, make_content(rng, corpus))
                    for i in range(start, min(size, start + 1000))
                ]
                ids += [f.id for f in mem.store_many(batch)]
            load_s = time.perf_counter() - t
            wanted = per_fact * size
            pairs: set[tuple[str, str]] = set()
            while len(pairs) < wanted:
                a, b = rng.choice(ids), rng.choice(ids)
                if a != b:
                    pairs.add((a, b))
            ordered = sorted(pairs, key=lambda p: rng.random())
            t = time.perf_counter()
            _bulk_links(mem, ordered, clock)
            links_s = time.perf_counter() - t
            singles: list[tuple[str, str]] = []
            while len(singles) < calls:
                a, b = rng.choice(ids), rng.choice(ids)
                if a != b and (a, b) not in pairs:
                    pairs.add((a, b))
                    singles.append((a, b))
            link_one = _timed(lambda p: mem.link(p[0], "about", p[1]), singles)
            starts = rng.sample(ids, calls)
            mem.links(starts[0], depth=2)  # warm the cache once
            depth2 = _timed(lambda i: mem.links(i, depth=2), starts)
            depth1 = _timed(lambda i: mem.links(i), starts)
            reached = sum(len(mem.links(i, depth=2).nodes) for i in starts[:20]) / 20
            out = {
                "facts": size,
                "links": len(pairs),
                "load_s": round(load_s, 2),
                "links_load_s": round(links_s, 2),
                "link_one_ms": link_one,
                "links_depth1_ms": depth1,
                "links_depth2_ms": depth2,
                "depth2_facts_reached_mean": round(reached, 1),
            }
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths (10 % people), random `about` links "
        "(3 a fact); no embedder. `Memory.links` walks both directions, every relation, "
        "through the subject's access filter. The bulk of the links is appended as events in "
        "batches (the projector writes them); `link` is one `Memory.link` each (load, decide, "
        f"append). Measured {m['date']} on {m.get('cpu_model') or 'unknown CPU'} "
        f"({m.get('cpu_count')} cores shared), commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/graph.py`. Raw: `benchmarks/results/graph.json`.",
        "",
        "| facts | links | links --depth 2 p50 / p95 ms | facts reached (mean) "
        "| --depth 1 p50 / p95 ms | link p50 / p95 ms | links loaded in s |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["sizes"]:
        d2, d1, one = r["links_depth2_ms"], r["links_depth1_ms"], r["link_one_ms"]
        lines.append(
            f"| {r['facts']:,} | {r['links']:,} | {d2['p50']:.2f} / {d2['p95']:.2f} | "
            f"{r['depth2_facts_reached_mean']} | {d1['p50']:.2f} / {d1['p95']:.2f} | "
            f"{one['p50']:.2f} / {one['p95']:.2f} | {r['links_load_s']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "graph.json")
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--links-per-fact", type=int, default=3)
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"machine": machine_info(), "sizes": []}
    for size in parse_sizes(ap, args.sizes):
        print(f"[graph] {size:,} facts ...", file=sys.stderr, flush=True)
        r = run_size(size, args.calls, args.links_per_fact)
        report["sizes"].append(r)
        d2 = r["links_depth2_ms"]
        print(f"[graph] {size:,}: depth 2 p50 {d2['p50']:.2f} ms", file=sys.stderr, flush=True)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
