"""Retrieval benchmarks: LoCoMo evidence retrieval and LongMemEval_S session retrieval.

The protocol modules (:mod:`.locomo`, :mod:`.longmemeval`, :mod:`.metrics`) are pure
functions over the public data; :mod:`.systems` holds the systems under test behind the
:class:`~benchmarks.retrieval.systems.Ranker` protocol; :mod:`.harness` runs one against the
other; ``run_locomo.py`` and ``run_longmemeval.py`` are the command-line runners. The data
itself is never copied here: it is read from ``--data-dir`` (by default ``../shared/bench``
beside the project root), see :data:`DEFAULT_DATA_DIR`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_DATA_DIR", "LOCOMO_FILE", "LONGMEMEVAL_FILE", "PROJECT_ROOT"]

#: The project root (the folder holding ``pyproject.toml``).
PROJECT_ROOT = Path(__file__).resolve().parents[2]
#: Where the benchmark data lives by default: ``shared/bench`` beside the project root.
DEFAULT_DATA_DIR = PROJECT_ROOT.parent / "shared" / "bench"
LOCOMO_FILE = "locomo-dev.json"
LONGMEMEVAL_FILE = "longmemeval-s-dev.jsonl.xz"
