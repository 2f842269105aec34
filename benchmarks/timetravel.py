"""Time travel at scale: recall, cat and find ``as_of`` a past time against the same reads now.

    python benchmarks/timetravel.py [--n 100000] [--queries 200]
                                    [--out benchmarks/results/timetravel.json]

One fresh memory (no embedder) of ``--n`` facts of ``benchmarks/scale.py`` sentences (10 %
of them ``project`` facts with a status), loaded with ``store_many``; then a history made
through ``Memory``, one command a transaction, over thirty simulated days: 2 % of the facts
forgotten (a quarter of those restored), 1 % superseded, 1 % of the projects' status updated,
1 % confirmed, 300 paths tagged and half of them untagged again, and 500 reinforcing recalls.
Then, through the default subject's access filter, read-only, it times keyword ``recall``
(scale.py's queries), ``cat`` of a path and ``find("project", {"status": "active"},
limit=10)``, each now and ``as_of`` three past times: before the history (the load), half-way
through it, and at its end. Target (issue 10): ``recall`` as of a past time, p50 at most 2x
plain keyword recall.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    latency_summary,
    machine_info,
    results_parser,
    save_results,
    time_each,
)
from benchmarks.scale import START, build_corpus, make_fact_args, make_queries

from embornal import FixedClock, Memory, NewFact

SECTION = "Time travel (issue 10 Part D)"
STATUSES = ("idea", "active", "paused", "done", "abandoned")


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _timed(calls: list[Any]) -> dict[str, Any]:
    return time_each(calls)


def build(db: Path, n: int, seed: int) -> tuple[Memory, FixedClock, dict[str, Any]]:
    """The memory and its history; the clock and the three past times."""
    rng = random.Random(f"{seed}:timetravel")
    corpus = build_corpus(seed, n)
    clock = FixedClock(START)
    mem = Memory.open(db, clock=clock)
    ids: list[str] = []
    projects: list[str] = []
    t0 = time.perf_counter()
    for start in range(0, n, 1000):
        items = []
        for i in range(start, min(n, start + 1000)):
            path, content, tags = make_fact_args(rng, corpus)
            if i % 10 == 0:
                attrs = {"name": f"p{i}", "status": rng.choice(STATUSES)}
                items.append(NewFact(path, content, tags, kind="project", attributes=attrs))
            else:
                items.append(NewFact(path, content, tags))
        for fact in mem.store_many(items):
            (projects if fact.kind == "project" else ids).append(fact.id)
        clock.advance(seconds=1)
    load_s = time.perf_counter() - t0
    _log(f"loaded {n:,} facts in {load_s:.1f} s")
    loaded = clock.now()
    clock.advance(days=1)
    forgets = rng.sample(ids, n // 50)
    gone = set(forgets)
    rest = [i for i in ids if i not in gone]
    supersedes = rng.sample(rest, n // 100)
    ops: list[tuple[str, str]] = [("forget", f) for f in forgets]
    ops += [("restore", f) for f in forgets[: len(forgets) // 4]]
    ops += [("supersede", f) for f in supersedes]
    ops += [("update", p) for p in rng.sample(projects, max(1, len(projects) // 100))]
    kept = sorted(set(rest) - set(supersedes))
    ops += [("confirm", f) for f in rng.sample(kept, n // 100)]
    paths = sorted(set(corpus.paths))
    tagged = rng.sample(paths, min(300, len(paths)))
    ops += [("tag", p) for p in tagged] + [("untag", p) for p in tagged[::2]]
    queries = make_queries(random.Random(f"{seed}:queries"), corpus, 500)
    ops += [("recall", q.text) for q in queries]
    rng.shuffle(ops)
    done_forget: set[str] = set()
    restored = 0
    t0 = time.perf_counter()
    midway = loaded
    step = timedelta(days=30) / len(ops)
    for i, (what, target) in enumerate(ops):
        clock.current += step
        if i == len(ops) // 2:
            midway = clock.now()
        if what == "forget":
            mem.forget(target, reason="outdated")
            done_forget.add(target)
        elif what == "restore" and target in done_forget:
            mem.restore(target, reason="still true")
            restored += 1
        elif what == "supersede":
            mem.supersede(target, "A corrected statement of this fact.", reason="corrected")
        elif what == "update":
            mem.update(target, {"status": rng.choice(STATUSES)})
        elif what == "confirm":
            mem.confirm(target)
        elif what == "tag":
            mem.tag_path(target, ["area=work"])
        elif what == "untag":
            mem.untag_path(target, ["area"])
        elif what == "recall":
            mem.recall(target, mode="keyword")
    history_s = time.perf_counter() - t0
    clock.advance(days=1)
    ended = clock.now()
    clock.advance(days=1)
    _log(f"made a history of {len(ops):,} commands in {history_s:.1f} s")
    info = {
        "facts": n,
        "load_seconds": round(load_s, 1),
        "history_commands": len(ops),
        "history_seconds": round(history_s, 1),
        "forgotten": len(done_forget),
        "restored": restored,
        "times": {"loaded": loaded, "midway": midway, "ended": ended},
        "queries": queries,
        "paths": paths,
    }
    return mem, clock, info


def measure(n: int, n_queries: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        mem, _, info = build(db, n, seed)
        queries = [q.text for q in info.pop("queries")][:n_queries]
        paths = info.pop("paths")
        cat_paths = [paths[i % len(paths)] for i in range(n_queries)]
        times = info.pop("times")
        rows = mem._store._rows(  # type: ignore[attr-defined]
            "SELECT (SELECT count(*) FROM fact_versions), (SELECT count(*) FROM fact_signals), "
            "(SELECT count(*) FROM fact_tag_versions), (SELECT count(*) FROM path_tag_versions)",
            (),
        )
        info["history_rows"] = dict(
            zip(
                ("fact_versions", "fact_signals", "fact_tag_versions", "path_tag_versions"),
                tuple(rows[0]),
                strict=True,
            )
        )
        for q in queries[:10]:  # warm the page cache
            mem.recall(q, reinforce=False, mode="keyword")
            mem.recall(q, reinforce=False, mode="keyword", as_of=times["midway"])
        # Interleaved: each query is timed now and at each past time in turn, so a busy
        # machine slows them alike.
        labels = {"now": None, **times}
        samples: dict[str, dict[str, list[int]]] = {k: {} for k in labels}

        def timed(label: str, name: str, call: Any) -> None:
            t = time.perf_counter_ns()
            call()
            samples[label].setdefault(name, []).append(time.perf_counter_ns() - t)

        for i, q in enumerate(queries):
            for label, at in labels.items():
                timed(
                    label,
                    "recall_keyword_ms",
                    lambda q=q, at=at: mem.recall(q, reinforce=False, mode="keyword", as_of=at),
                )
                p = cat_paths[i]
                timed(label, "cat_ms", lambda p=p, at=at: _safe(lambda: mem.cat(p, as_of=at)))
                if i < 100:
                    timed(
                        label,
                        "find_limit10_ms",
                        lambda at=at: mem.find("project", {"status": "active"}, limit=10, as_of=at),
                    )
                if i < 20:
                    timed(
                        label,
                        "find_all_ms",
                        lambda at=at: mem.find("project", {"status": "active"}, as_of=at),
                    )
                if i < 10:
                    timed(label, "ls_root_ms", lambda at=at: mem.ls("/", as_of=at))
        figures = {
            label: {name: latency_summary(v) for name, v in by_name.items()}
            for label, by_name in samples.items()
        }
        for label in labels:
            _log(f"{label}: recall p50 {figures[label]['recall_keyword_ms']['p50']} ms")
        mem.close()
        return {"info": info, "figures": figures}


def _safe(call: Any) -> Any:
    from embornal.errors import NotFound

    try:
        return call()
    except NotFound:  # the path held nothing then
        return None


def _table(report: dict[str, Any]) -> str:
    figures = report["figures"]
    base = figures["now"]["recall_keyword_ms"]["p50"]
    lines = [
        f"{report['info']['facts']:,} facts, a history of {report['info']['history_commands']:,} "
        f"commands over 30 days (history rows: {report['info']['history_rows']}). "
        "p50 / p95 in ms, read-only, default subject.",
        "",
        "| as of | recall (keyword) | x now | cat PATH | find limit 10 | find all | ls / |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, f in figures.items():
        r = f["recall_keyword_ms"]
        lines.append(
            f"| {label} | {r['p50']} / {r['p95']} | {r['p50'] / base:.2f} | "
            f"{f['cat_ms']['p50']} / {f['cat_ms']['p95']} | "
            f"{f['find_limit10_ms']['p50']} / {f['find_limit10_ms']['p95']} | "
            f"{f['find_all_ms']['p50']} | {f['ls_root_ms']['p50']} |"
        )
    worst = max(figures[k]["recall_keyword_ms"]["p50"] for k in figures if k != "now")
    verdict = "met" if worst <= 2 * base else "MISSED"
    lines += [
        "",
        f"Target `recall --at` p50 <= 2x plain keyword recall ({2 * base:.3f} ms): "
        f"worst past time {worst} ms, {verdict}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "timetravel.json")
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args(argv)
    report = measure(args.n, args.queries, args.seed)
    report["machine"] = machine_info()
    save_results(args, report, SECTION, _table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
