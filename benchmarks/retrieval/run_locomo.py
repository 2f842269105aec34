"""LoCoMo evidence retrieval: run a system and report Recall@5, Hit@5 and MRR@5.

    python benchmarks/retrieval/run_locomo.py --system bm25
    python benchmarks/retrieval/run_locomo.py --system embornal --mode hybrid --embedder minilm

Prints a markdown table (overall and per category) and writes a JSON result (config,
metrics, number of questions, timings, per-question selections) to ``--out``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.retrieval import LOCOMO_FILE, cli, harness, locomo

#: memory-as-history's BM25 on ``locomo-dev.json`` (shared/bench/README.md).
REFERENCE_BM25_DEV = {"recall@5": 0.4465, "hit@5": 0.4934, "mrr@5": 0.3451}
COLUMNS = (("recall@5", "Recall@5"), ("hit@5", "Hit@5"), ("mrr@5", "MRR@5"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    cli.add_common_arguments(parser)
    args = parser.parse_args(argv)
    config = cli.config_from_args(parser, args)
    data_file = config.data_dir / LOCOMO_FILE
    if not data_file.is_file():
        parser.error(f"no {LOCOMO_FILE} in {config.data_dir} (see --data-dir)")
    suffix = (f"-{config.half}" if config.half else "") + ("-cascade" if config.cascade else "")
    out = args.out or cli.RESULTS_DIR / f"locomo-{config.system}-{config.mode}{suffix}.json"

    started = time.perf_counter()
    conversations = locomo.load_conversations(data_file)
    if config.half is not None:
        from benchmarks.retrieval.split import halves

        half = halves(c.sample_id for c in conversations)
        conversations = [c for c in conversations if half[c.sample_id] == config.half]
    conversations = conversations[: config.limit]
    try:
        ranker = cli.make_ranker(config)
    except cli.expected_errors() as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        result = harness.run_locomo(
            ranker,
            conversations,
            depth=config.depth,
            progress=cli.progress_printer(args.progress),
        )
    except cli.expected_errors() as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        cli.close_ranker(ranker)
    wall = time.perf_counter() - started

    n = len(result.questions)
    print(
        f"## LoCoMo evidence retrieval — {config.system} "
        f"({config.mode}, embedder {config.embedder})"
    )
    print()
    print(cli.markdown_table(result.metrics, COLUMNS, "category"))
    print()
    print(
        f"{n} questions, {sum(len(c.turns) for c in conversations)} turns in "
        f"{len(conversations)} conversations; wall {wall:.1f} s "
        f"(index {result.index_seconds:.1f} s, queries {result.query_seconds:.1f} s)"
    )
    payload = {
        "benchmark": "locomo-evidence-retrieval",
        "protocol": {
            "memories": "one per turn: '<speaker>: <text>' + '\\nImage caption: <caption>'",
            "eligible": "category != 5, non-empty evidence, every stripped label a dia_id",
            "budget": {"max_turns": locomo.MAX_TURNS, "max_bytes": locomo.MAX_BYTES},
        },
        "config": {
            **config.as_dict(),
            "data_file": data_file.name,
            "data_sha256": cli.file_sha256(data_file),
        },
        "n_questions": n,
        "n_conversations": len(conversations),
        "metrics": result.metrics,
        "reference_bm25_dev": REFERENCE_BM25_DEV,
        "wall_seconds": round(wall, 3),
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
