"""The fixed fit / check halves of the dev files (benchmarks/retrieval/split.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.retrieval import DEFAULT_DATA_DIR, LOCOMO_FILE, run_locomo, split


def test_halves_are_fixed_balanced_and_disjoint() -> None:
    units = [f"q{n}" for n in range(11)]
    first = split.halves(units)
    assert first == split.halves(reversed(units))  # the order given does not matter
    assert set(first) == set(units)
    counts = [list(first.values()).count(h) for h in split.HALVES]
    assert counts == [6, 5]  # dealt alternately, fit first
    assert split.halves([*units, "q3"]) == first  # repeats are one unit


def test_a_locomo_question_belongs_to_its_conversation() -> None:
    assert split.locomo_unit("conv-26:7") == "conv-26"
    assert split.longmemeval_unit("0a995998") == "0a995998"


def test_split_metrics_are_the_means_over_each_half() -> None:
    questions = [
        {"id": f"conv-{c}:{n}", "recall@5": float(c % 2), "hit@5": 1.0}
        for c in range(4)
        for n in range(3)
    ]
    result = {
        "benchmark": "locomo-evidence-retrieval",
        "metrics": {"overall": {"recall@5": 0.5, "hit@5": 1.0, "n": 12}},
        "questions": questions,
    }
    got = split.split_metrics(result)
    half = split.halves(f"conv-{c}" for c in range(4))
    for h in split.HALVES:
        mine = [q for q in questions if half[q["id"].split(":")[0]] == h]
        assert got[h]["n"] == len(mine) == 6
        assert got[h]["recall@5"] == sum(q["recall@5"] for q in mine) / len(mine)
    assert got["all"]["recall@5"] == 0.5


@pytest.mark.skipif(not (DEFAULT_DATA_DIR / LOCOMO_FILE).is_file(), reason="no LoCoMo dev file")
def test_a_run_of_one_half_scores_what_the_split_of_the_whole_run_gives(tmp_path: Path) -> None:
    whole, check = tmp_path / "whole.json", tmp_path / "check.json"
    assert run_locomo.main(["--system", "bm25", "--out", str(whole)]) == 0
    assert run_locomo.main(["--system", "bm25", "--half", "check", "--out", str(check)]) == 0
    of_whole = split.split_metrics(json.loads(whole.read_text()))["check"]
    ran = json.loads(check.read_text())
    assert ran["config"]["half"] == "check"
    assert ran["metrics"]["overall"]["n"] == of_whole["n"]
    assert ran["metrics"]["overall"]["recall@5"] == pytest.approx(of_whole["recall@5"])
