"""LongMemEval_S session retrieval: run a system and report recall_any, recall_all, ndcg_any.

    python benchmarks/retrieval/run_longmemeval.py --system bm25 --granularity session
    python benchmarks/retrieval/run_longmemeval.py --system embornal --mode keyword \
        --granularity round

Prints a markdown table (overall and per question type) and writes a JSON result (config,
metrics, number of questions, timings, per-question top sessions) to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.retrieval import LONGMEMEVAL_FILE, cli, harness, longmemeval

#: memory-as-history-style BM25, one document per session (shared/bench/README.md).
REFERENCE_BM25_DEV = {
    "session": {
        "recall_any@1": 0.867,
        "recall_any@5": 0.980,
        "recall_any@10": 0.990,
        "recall_all@5": 0.837,
        "ndcg_any@10": 0.909,
    },
    "session_user": {"recall_any@1": 0.837, "recall_any@5": 0.949, "recall_all@5": 0.837},
}
COLUMNS = tuple(
    (f"{metric}@{k}", f"{label}@{k}")
    for metric, label in (("recall_any", "R_any"), ("recall_all", "R_all"), ("ndcg_any", "nDCG"))
    for k in longmemeval.KS
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    cli.add_common_arguments(parser)
    parser.add_argument(
        "--granularity",
        choices=longmemeval.GRANULARITIES,
        default="session",
        help="how sessions become memories (default: session, all turns)",
    )
    args = parser.parse_args(argv)
    config = cli.config_from_args(parser, args)
    data_file = config.data_dir / LONGMEMEVAL_FILE
    if not data_file.is_file():
        parser.error(f"no {LONGMEMEVAL_FILE} in {config.data_dir} (see --data-dir)")
    granularity = args.granularity
    suffix = (f"-{config.half}" if config.half else "") + ("-cascade" if config.cascade else "")
    out = args.out or (
        cli.RESULTS_DIR / f"longmemeval-{config.system}-{config.mode}-{granularity}{suffix}.json"
    )

    started = time.perf_counter()
    started_cpu = time.process_time()  # every thread of the process: ONNX Runtime's too
    load_start = os.getloadavg()  # the machine may be shared: quote its load beside times
    everything = longmemeval.load_items(data_file)
    items = longmemeval.eligible_items(everything)
    if config.half is not None:
        from benchmarks.retrieval.split import halves

        half = halves(i.question_id for i in items)
        items = [i for i in items if half[i.question_id] == config.half]
    items = items[: config.limit]
    try:
        ranker = cli.make_ranker(config)
    except cli.expected_errors() as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        result = harness.run_longmemeval(
            ranker,
            items,
            granularity=granularity,
            depth=config.depth,
            progress=cli.progress_printer(args.progress),
        )
    except cli.expected_errors() as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        cli.close_ranker(ranker)
    wall = time.perf_counter() - started
    cpu = time.process_time() - started_cpu
    load_end = os.getloadavg()

    print(
        f"## LongMemEval_S session retrieval — {config.system} "
        f"({config.mode}, embedder {config.embedder}, granularity {granularity})"
    )
    print()
    print(cli.markdown_table(result.metrics, COLUMNS, "question type"))
    print()
    print(
        f"{len(items)} questions ({len(everything) - len(longmemeval.eligible_items(everything))} "
        f"abstention excluded), {result.memories} memories; wall {wall:.1f} s "
        f"(index {result.index_seconds:.1f} s, queries {result.query_seconds:.1f} s), "
        f"CPU {cpu:.1f} s, load average {load_start[0]:.2f} at the start, "
        f"{load_end[0]:.2f} at the end"
    )
    payload = {
        "benchmark": "longmemeval-s-session-retrieval",
        "protocol": {
            "space": "a fresh memory space per question",
            "session_ranking": "order in which sessions first appear in the ranked memories",
            "excluded": "question ids ending in _abs",
            "metrics": "recall_any@k, recall_all@k, ndcg_any@k as upstream eval_utils.py",
        },
        "config": {
            **config.as_dict(),
            "granularity": granularity,
            "data_file": data_file.name,
            "data_sha256": cli.file_sha256(data_file),
        },
        "n_questions": len(items),
        "n_memories": result.memories,
        "metrics": result.metrics,
        "reference_bm25_dev": REFERENCE_BM25_DEV,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "load_average": {"start": list(load_start), "end": list(load_end)},
        "index_seconds": round(result.index_seconds, 3),
        "query_seconds": round(result.query_seconds, 3),
        "environment": cli.environment(),
        "questions": result.per_question(),
    }
    cli.write_json(out, payload)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
