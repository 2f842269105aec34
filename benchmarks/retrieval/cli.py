"""What the two runners share: common arguments, building the ranker, tables, JSON output."""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.retrieval import DEFAULT_DATA_DIR, PROJECT_ROOT
from benchmarks.retrieval.systems import (
    EMBEDDERS,
    MODES,
    Bm25Ranker,
    EmbornalRanker,
    Ranker,
    build_embedder,
)

__all__ = [
    "DEFAULT_EMBEDDING_CACHE",
    "MODEL_EMBEDDERS",
    "RESULTS_DIR",
    "SYSTEMS",
    "RunConfig",
    "add_common_arguments",
    "close_ranker",
    "config_from_args",
    "environment",
    "expected_errors",
    "file_sha256",
    "fusion_settings",
    "make_ranker",
    "markdown_table",
    "progress_printer",
    "write_json",
]

SYSTEMS = ("bm25", "embornal")
#: Where results go unless ``--out`` says otherwise.
RESULTS_DIR = PROJECT_ROOT / "benchmarks" / "results"
#: Embeddings kept between runs unless ``--no-embedding-cache`` (git ignores the folder).
DEFAULT_EMBEDDING_CACHE = PROJECT_ROOT / "benchmarks" / ".cache" / "embeddings.sqlite"
#: The embedders whose vectors cost enough to keep: every one but ``none`` and ``fake``.
MODEL_EMBEDDERS = tuple(name for name in EMBEDDERS if name not in ("none", "fake"))


@dataclass(frozen=True)
class RunConfig:
    system: str
    mode: str
    embedder: str
    data_dir: Path
    depth: int | None
    limit: int | None
    embedding_cache: Path | None = None
    half: str | None = None  # fit or check (benchmarks/retrieval/split.py); None: all
    # ``--set NAME=VALUE``: embornal's FusionSettings fields that differ from the defaults.
    settings: tuple[tuple[str, str], ...] = ()
    cascade: bool = False  # embornal ranks through the recall cascade (decision 0095)
    # A cross-encoder model directory: embornal recalls with rerank=True (decision 0115).
    rerank: Path | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "mode": self.mode,
            "embedder": self.embedder,
            "data_dir": str(self.data_dir),
            "depth": self.depth,
            "limit": self.limit,
            "embedding_cache": None if self.embedding_cache is None else str(self.embedding_cache),
            "half": self.half,
            "settings": dict(self.settings),
            "cascade": self.cascade,
            "rerank": None if self.rerank is None else str(self.rerank),
        }


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", choices=SYSTEMS, default="bm25", help="system under test")
    parser.add_argument(
        "--mode", choices=MODES, default="keyword", help="embornal recall mode (bm25: keyword)"
    )
    parser.add_argument(
        "--embedder",
        choices=EMBEDDERS,
        default=None,
        help="embedding provider for embornal (default: none for keyword, minilm otherwise)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help=f"folder holding the benchmark files (default: {DEFAULT_DATA_DIR})",
    )
    parser.add_argument("--out", type=Path, default=None, help="where to write the JSON result")
    parser.add_argument(
        "--depth",
        type=int,
        default=None,
        help="ids to ask the system for per query (default: every memory of the space)",
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="only the first N spaces (a quick look)"
    )
    parser.add_argument(
        "--half",
        choices=("fit", "check"),
        default=None,
        help="only one fixed half of the dev file (split.py): choose on fit, report check",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an embornal FusionSettings field for this run (repeatable): method=rrf, "
        "vector_weight=2, temporal_weight=0, neighbour_weights=0.4,0.3",
    )
    parser.add_argument("--progress", action="store_true", help="report each space on stderr")
    parser.add_argument(
        "--cascade",
        action="store_true",
        help="embornal ranks through the recall cascade (anchors, canon, then memories)",
    )
    parser.add_argument(
        "--rerank",
        type=Path,
        default=None,
        metavar="DIR",
        help="embornal reorders its best candidates (--set rerank_top=N, default 30) with the "
        "cross-encoder in DIR (an ONNX export, as `embornal model pull --reranker` fetches)",
    )
    parser.add_argument(
        "--embedding-cache",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep embeddings in this SQLite file and reuse them on reruns (same results; "
        f"default for a model embedder: {DEFAULT_EMBEDDING_CACHE})",
    )
    parser.add_argument(
        "--no-embedding-cache",
        action="store_true",
        help="embed every text again (no cache file is read or written)",
    )


def config_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> RunConfig:
    """Validate the common arguments and resolve the defaults."""
    if args.system == "bm25" and args.mode != "keyword":
        parser.error("--system bm25 ranks by keywords only: use --mode keyword")
    embedder = args.embedder
    if embedder is None:
        embedder = "none" if args.system == "bm25" or args.mode == "keyword" else "minilm"
    if args.system == "bm25" and embedder != "none":
        parser.error("--system bm25 takes no embedder")
    if args.depth is not None and args.depth < 1:
        parser.error("--depth must be at least 1")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    settings: list[tuple[str, str]] = []
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            parser.error(f"--set takes NAME=VALUE, not {item!r}")
        settings.append((name.strip(), value.strip()))
    if settings and args.system != "embornal":
        parser.error("--set applies to --system embornal only")
    try:
        fusion_settings(tuple(settings))
    except (TypeError, ValueError) as e:
        parser.error(f"--set: {e}")
    if args.cascade and args.system != "embornal":
        parser.error("--cascade is embornal's recall cascade: use --system embornal")
    if args.rerank is not None and args.system != "embornal":
        parser.error("--rerank is embornal's reranker: use --system embornal")
    if args.rerank is not None and not args.rerank.is_dir():
        parser.error(f"--rerank: {args.rerank} is not a directory")
    cache = args.embedding_cache
    if cache is None and embedder in MODEL_EMBEDDERS:
        cache = DEFAULT_EMBEDDING_CACHE
    if args.no_embedding_cache:
        cache = None
    return RunConfig(
        system=args.system,
        mode=args.mode,
        embedder=embedder,
        data_dir=args.data_dir,
        depth=args.depth,
        limit=args.limit,
        embedding_cache=cache,
        half=args.half,
        settings=tuple(settings),
        cascade=args.cascade,
        rerank=args.rerank,
    )


def fusion_settings(settings: Sequence[tuple[str, str]]) -> object | None:
    """embornal's ``FusionSettings`` with ``settings`` (NAME, VALUE text) changed, or None
    when nothing is changed. A value takes the type of the field's default."""
    if not settings:
        return None
    from embornal.domain.recall.ranking import FusionSettings
    from embornal.domain.records import record_fields

    base = FusionSettings()
    known = set(record_fields(base) or ())
    changes: dict[str, object] = {}
    for name, value in settings:
        if name not in known:
            raise ValueError(f"FusionSettings has no field {name!r} ({', '.join(sorted(known))})")
        default = getattr(base, name)
        if isinstance(default, bool):
            changes[name] = value.lower() in ("1", "true", "yes", "on")
        elif isinstance(default, int):
            changes[name] = int(value)
        elif isinstance(default, float):
            changes[name] = float(value)
        elif isinstance(default, tuple):
            changes[name] = tuple(float(v) for v in value.split(",") if v.strip())
        else:
            changes[name] = value
    return FusionSettings(**{name: getattr(base, name) for name in known} | changes)


def make_ranker(config: RunConfig) -> Ranker:
    """The system under test for ``config``."""
    if config.system == "bm25":
        return Bm25Ranker()
    embedder = build_embedder(config.embedder)
    if embedder is not None and config.embedding_cache is not None:
        from benchmarks.retrieval.embed_cache import CachedEmbedder

        config.embedding_cache.parent.mkdir(parents=True, exist_ok=True)
        embedder = CachedEmbedder(embedder, config.embedding_cache)
    reranker = None
    if config.rerank is not None:
        from embornal.adapters.rerank.onnx import OnnxReranker

        reranker = OnnxReranker(config.rerank)
    return EmbornalRanker(
        config.mode,
        embedder=embedder,
        fusion=fusion_settings(config.settings),
        cascade=config.cascade,
        reranker=reranker,
    )


def expected_errors() -> tuple[type[BaseException], ...]:
    """Errors a run reports in one line: missing pieces, and embornal's own errors."""
    errors: tuple[type[BaseException], ...] = (ImportError, RuntimeError)
    try:
        from embornal.errors import EmbornalError
    except ImportError:
        return errors
    return (*errors, EmbornalError)


def close_ranker(ranker: Ranker) -> None:
    close = getattr(ranker, "close", None)
    if callable(close):
        close()


def progress_printer(enabled: bool) -> Any:
    """A progress callback writing to stderr, or None."""
    if not enabled:
        return None

    def report(done: int, total: int, space: str) -> None:
        print(f"[{done}/{total}] {space}", file=sys.stderr, flush=True)

    return report


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def markdown_table(
    groups: Mapping[str, Mapping[str, float]], columns: Sequence[tuple[str, str]], label: str
) -> str:
    """A markdown table: one row per group, ``n`` then the ``(key, header)`` columns."""
    header = [label, "n", *(title for _, title in columns)]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    for name, values in groups.items():
        cells = [name, str(int(values.get("n", 0)))]
        cells += [f"{values[key]:.4f}" for key, _ in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def write_json(path: Path, payload: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
