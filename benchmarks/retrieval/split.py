"""Two fixed halves of each dev file, so that a method is chosen on one and checked on the
other (issue 14: gains fitted to a whole dev file did not all hold on unseen questions).

    python benchmarks/retrieval/split.py [RESULT.json ...] [--out benchmarks/results/split.json]

The unit is what questions share: a LoCoMo conversation (its questions ask about one
dialogue), a LongMemEval question (each has its own haystack). Units are ordered by the
SHA-256 of their id and dealt alternately, *fit* first, so the halves are fixed, balanced
and blind to content. Choosing fusion methods and weights looks at the fit half only; the
check half is reported beside it and decides whether a gain is claimed.

With result files (default: every ``locomo-*.json`` and ``longmemeval-*.json`` in
``benchmarks/results``), it recomputes each file's overall metrics on each half from its
per-question scores, prints them side by side and writes them as JSON. The runners take
``--half fit|check`` to run one half only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.retrieval.cli import RESULTS_DIR, write_json
from benchmarks.retrieval.metrics import summarize

__all__ = [
    "HALVES",
    "halves",
    "locomo_unit",
    "longmemeval_unit",
    "main",
    "split_by_group",
    "split_metrics",
]

HALVES = ("fit", "check")


def halves(units: Iterable[str]) -> dict[str, str]:
    """Each distinct unit id and its half: ordered by SHA-256, dealt fit, check, fit, …"""
    ordered = sorted(set(units), key=lambda u: hashlib.sha256(u.encode("utf-8")).hexdigest())
    return {u: HALVES[i % 2] for i, u in enumerate(ordered)}


def locomo_unit(question_id: str) -> str:
    """A LoCoMo question's conversation (``conv-26:7`` → ``conv-26``)."""
    return question_id.split(":", 1)[0]


def longmemeval_unit(question_id: str) -> str:
    return question_id


def _unit_of(benchmark: str) -> Any:
    return locomo_unit if benchmark.startswith("locomo") else longmemeval_unit


def split_metrics(result: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """The overall metrics of a result file on each half (and on the whole)."""
    questions: Sequence[Mapping[str, Any]] = result["questions"]
    unit = _unit_of(str(result["benchmark"]))
    half = halves(unit(str(q["id"])) for q in questions)
    metric_names = [k for k in result["metrics"]["overall"] if k != "n"]
    rows = {
        h: [{m: float(q[m]) for m in metric_names} for q in questions if half[unit(q["id"])] == h]
        for h in HALVES
    }
    out = {h: summarize(r) if r else {"n": 0} for h, r in rows.items()}
    out["all"] = summarize([{m: float(q[m]) for m in metric_names} for q in questions])
    return out


def split_by_group(result: Mapping[str, Any], metric: str) -> dict[str, dict[str, float]]:
    """``metric`` per LoCoMo category (or LongMemEval question type) on each half."""
    from benchmarks.retrieval.locomo import CATEGORY_NAMES

    questions: Sequence[Mapping[str, Any]] = result["questions"]
    unit = _unit_of(str(result["benchmark"]))
    half = halves(unit(str(q["id"])) for q in questions)
    out: dict[str, dict[str, float]] = {}
    for q in questions:
        raw = q.get("category", q.get("type"))
        group = CATEGORY_NAMES.get(raw, str(raw)) if isinstance(raw, int) else str(raw)
        cell = out.setdefault(group, {"fit": 0.0, "check": 0.0, "n_fit": 0.0, "n_check": 0.0})
        h = half[unit(str(q["id"]))]
        cell[h] += float(q[metric])
        cell[f"n_{h}"] += 1
    for cell in out.values():
        for h in HALVES:
            cell[h] = cell[h] / cell[f"n_{h}"] if cell[f"n_{h}"] else 0.0
    return out


def _group_table(rows: list[tuple[str, Mapping[str, Any]]], metric: str) -> str:
    """One row per category, one column per result: ``fit / check``."""
    groups: list[str] = []
    split = [(label, split_by_group(result, metric)) for label, result in rows]
    for _, by in split:
        groups += [g for g in by if g not in groups]
    head = ["category", "n fit / check", *(label for label, _ in split)]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|",
    ]
    for g in groups:
        first = split[0][1].get(g, {})
        cells = [g, f"{int(first.get('n_fit', 0))} / {int(first.get('n_check', 0))}"]
        for _, by in split:
            c = by.get(g, {})
            cells.append(f"{c.get('fit', 0.0):.3f} / {c.get('check', 0.0):.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _label(result: Mapping[str, Any], path: Path) -> str:
    c = result.get("config", {})
    parts = [c.get("system", "?"), c.get("mode", "?")]
    if c.get("granularity"):
        parts.append(str(c["granularity"]))
    if c.get("embedder") not in (None, "none"):
        parts.append(str(c["embedder"]))
    parts += [f"{k}={v}" for k, v in (c.get("settings") or {}).items()]
    return f"{path.stem.split('-')[0]} " + " ".join(parts)


def _table(rows: list[tuple[str, dict[str, dict[str, float]]]], columns: Sequence[str]) -> str:
    head = ["result", "n fit / check", *(f"{c} fit / check" for c in columns)]
    rule = "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"
    lines = ["| " + " | ".join(head) + " |", rule]
    for label, m in rows:
        fit, check = m["fit"], m["check"]
        cells = [label, f"{int(fit.get('n', 0))} / {int(check.get('n', 0))}"]
        cells += [f"{fit.get(c, 0.0):.3f} / {check.get(c, 0.0):.3f}" for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("results", nargs="*", type=Path, help="result files of the runners")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "split.json")
    parser.add_argument(
        "--by-category",
        metavar="METRIC",
        default=None,
        help="instead: METRIC (recall@5, recall_any@1, ...) per category on each half",
    )
    args = parser.parse_args(argv)
    files = args.results or sorted(
        [*RESULTS_DIR.glob("locomo-*.json"), *RESULTS_DIR.glob("longmemeval-*.json")]
    )
    if args.by_category:
        loaded = [json.loads(p.read_text(encoding="utf-8")) for p in files]
        labelled = [(_label(r, p), r) for r, p in zip(loaded, files, strict=True)]
        print(_group_table(labelled, args.by_category))
        return 0
    report: dict[str, Any] = {"rule": "units by SHA-256 of their id, dealt fit, check, …"}
    by_benchmark: dict[str, list[tuple[str, dict[str, dict[str, float]]]]] = {}
    for path in files:
        result = json.loads(path.read_text(encoding="utf-8"))
        if "questions" not in result:
            continue
        metrics = split_metrics(result)
        report[path.name] = metrics
        rows = by_benchmark.setdefault(str(result["benchmark"]), [])
        rows.append((_label(result, path), metrics))
    for benchmark, rows in by_benchmark.items():
        columns = (
            ("recall@5", "hit@5", "mrr@5")
            if benchmark.startswith("locomo")
            else ("recall_any@1", "recall_any@5", "recall_all@5", "ndcg_any@10")
        )
        print(f"## {benchmark}: fit half / check half\n")
        print(_table(rows, columns))
        print()
    write_json(args.out, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
