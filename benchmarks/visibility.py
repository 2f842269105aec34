"""Visibility in the access filter: keyword recall at 100k facts with and without it.

    python benchmarks/visibility.py [--facts 100000] [--queries 300]

Loads the corpus of ``benchmarks/http_load.py`` (every fact tagged ``visibility=public``,
a team and a language), then 1% private and 1% restricted facts. For three readers — the
``default`` subject (an allow on ``path:/*``), a token's subject (its own facts and the
public ones) and a subject of 20 rules (subtree, path and tag rules, allows and denies) —
it times ``Memory.recall(q, reinforce=False, limit=10)`` with the read scope as the
service builds it (rules and visibility: decision 0038) and with the same rules but no
viewer (the filter as it was before visibility), interleaved query by query. Also as an
assistant (``default`` subject). Raw figures: ``benchmarks/results/visibility.json``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import latency_summary, machine_info, results_parser, save_results
from benchmarks.http_load import Corpus, bulk_load, twenty_rules

SECTION = "Visibility in the access filter"


def _without_viewer(memory: Any) -> Any:
    """The same reader, its scope stripped of the viewer (rules only)."""
    access = memory._ctx.access
    rules_only = access.read_filter

    def read_filter() -> Any:
        return rules_only().seen_by(None)

    clone = memory.as_subject(memory.subject, memory.actor_kind)
    clone._ctx.access.read_filter = read_filter
    return clone


def measure(db: Path, corpus: Corpus, queries: int) -> dict[str, Any]:
    from embornal import Memory

    with Memory.open(db) as memory:
        for ptype, values in twenty_rules("ruled", corpus.paths):
            memory.policy_add(ptype, values)
        memory.token_add("token")
        readers = {
            "default": memory,
            "token": memory.as_subject("token"),
            "ruled": memory.as_subject("ruled"),
            "assistant": memory.as_subject("default", "assistant"),
        }
        pairs = {name: (m, _without_viewer(m)) for name, m in readers.items()}
        qs = [corpus.query() for _ in range(queries)]
        for q in qs[:20]:
            for with_v, without_v in pairs.values():
                with_v.recall(q, reinforce=False)
                without_v.recall(q, reinforce=False)
        samples: dict[str, dict[str, list[int]]] = {
            name: {"with": [], "without": []} for name in pairs
        }
        for i, q in enumerate(qs):
            for name, (with_v, without_v) in pairs.items():
                order = (("with", with_v), ("without", without_v))
                for label, m in order if i % 2 == 0 else order[::-1]:
                    t0 = time.perf_counter_ns()
                    m.recall(q, limit=10, reinforce=False)
                    samples[name][label].append(time.perf_counter_ns() - t0)
    out: dict[str, Any] = {}
    for name, by in samples.items():
        w, wo = latency_summary(by["with"]), latency_summary(by["without"])
        out[name] = {"with": w, "without": wo, "ratio_p50": round(w["p50"] / wo["p50"], 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "visibility.json")
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300)
    args = ap.parse_args(argv)
    from embornal import Memory, NewFact

    corpus = Corpus.make(args.facts)
    with tempfile.TemporaryDirectory(prefix="embornal-vis-") as tmp:
        db = Path(tmp) / "memory.db"
        print(f"loading {args.facts:,} facts ...", file=sys.stderr)
        rate = bulk_load(db, corpus, args.facts)
        hidden = max(1, args.facts // 100)
        with Memory.open(db) as memory:
            for level in ("private", "restricted:token,ruled"):
                batch = [
                    NewFact(
                        corpus.paths[i % len(corpus.paths)],
                        corpus.sentence(),
                        {"visibility": "public"},
                        visibility=level,
                    )
                    for i in range(hidden)
                ]
                memory.store_many(batch)
        print("measuring ...", file=sys.stderr)
        result = measure(db, corpus, args.queries)
    report = {
        "benchmark": "visibility",
        "machine": machine_info(),
        "facts": args.facts,
        "private": hidden,
        "restricted": hidden,
        "bulk_facts_per_s": round(rate, 1),
        "keyword_recall_ms": result,
    }
    m = report["machine"]
    lines = [
        f"Measured {m.get('date')} on {m.get('cpu_model')} ({m.get('cpu_count')} CPUs, shared), "
        f"commit `{m.get('git_commit')}`, load average at the end {m.get('loadavg')}. "
        f"{args.facts:,} facts (+{hidden:,} private, +{hidden:,} restricted), "
        f"{args.queries} queries of 1-2 words, `recall(q, reinforce=False, limit=10)`. "
        "`with`: the read scope as the service builds it (rules + visibility); `without`: "
        "the same rules, no viewer (the filter before visibility), interleaved. "
        "Reproduce: `python benchmarks/visibility.py`; raw: `benchmarks/results/visibility.json`.",
        "",
        "| reader | with visibility p50 / p95 ms | without p50 / p95 ms | p50 ratio |",
        "|---|---:|---:|---:|",
    ]
    for name, r in result.items():
        lines.append(
            f"| {name} | {r['with']['p50']:.2f} / {r['with']['p95']:.2f} | "
            f"{r['without']['p50']:.2f} / {r['without']['p95']:.2f} | x{r['ratio_p50']:.2f} |"
        )
    save_results(args, report, SECTION, "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
