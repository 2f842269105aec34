"""``memory recall --rerank`` and ``model pull --reranker`` through the console script.

The reranker is a random-weight cross-encoder of the default one's architecture
(tests/rerank_helpers.py); a model hub runs on 127.0.0.1 inside the test.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run
from cli_servers import HubHandler, LocalServer

from rerank_helpers import cross_encoder_dir

REPO = "cross-encoder/ms-marco-MiniLM-L-6-v2"


def _config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(text, encoding="utf-8")


def _seed(stored: Callable[..., str]) -> list[str]:
    return [stored(f"/port/p{i}", f"fact {i}: {'harbour ' * (6 - i)}ferry") for i in range(6)]


def test_recall_rerank_without_the_model_names_the_pull(
    cli: Run, stored: Callable[..., str]
) -> None:
    _seed(stored)
    r = cli("memory", "recall", "harbour", "--rerank")
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert REPO in r.err and "embornal model pull --reranker" in r.err
    assert cli("memory", "recall", "harbour").code == 0  # without it nothing changes


def test_model_pull_reranker(cli: Run, embornal_home: Path, stored: Callable[..., str]) -> None:
    files = {
        f"{REPO}/onnx/model.onnx": b"\x08\x07" * 1000,
        f"{REPO}/tokenizer.json": b'{"model": {}}',
        f"{REPO}/config.json": b"{}",
        f"{REPO}/onnx/model_qint8_avx512.onnx": b"not wanted",
    }
    with LocalServer(HubHandler, files=files) as hub:
        env = {**os.environ, "HF_ENDPOINT": hub.url}
        r = cli("model", "pull", "--reranker", "--json", env=env)
        assert r.code == 0, r.err
        pulled = r.json()
        assert pulled["name"] == REPO and pulled["role"] == "reranker"
        assert pulled["files"] == ["onnx/model.onnx", "tokenizer.json", "config.json"]
        assert "recall QUERY --rerank" in r.err
    directory = embornal_home / "models" / "cross-encoder--ms-marco-MiniLM-L-6-v2"
    assert (directory / "onnx" / "model.onnx").stat().st_size == 2000
    assert not (directory / "onnx" / "model_qint8_avx512.onnx").exists()
    listed = cli("model", "ls", "--json").json()
    assert [(m["name"], m["complete"], m["in_use"]) for m in listed] == [(REPO, True, True)]
    # Garbage weights: a reranker error (exit 6) for the recall that asks, nothing else.
    _seed(stored)
    r = cli("memory", "recall", "harbour", "--rerank")
    assert r.code == 6 and "the reranker's tokenizer" in r.err and "pull --reranker" in r.err
    assert cli("memory", "recall", "harbour").code == 0


def test_recall_rerank_explain_and_json(
    cli: Run,
    embornal_home: Path,
    stored: Callable[..., str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    model = cross_encoder_dir(tmp_path_factory)
    _config(embornal_home, f"rerank:\n  model_path: {model}\n  top: 3\n")
    _seed(stored)
    r = cli("memory", "recall", "harbour", "--mode", "keyword", "--rerank", "--explain")
    assert r.code == 0, r.err
    assert r.out.count("   rerank    ") == 3 and "place 1 after fusion" in r.out
    assert "reranked by the cross-encoder" in r.out
    hits = cli("memory", "recall", "harbour", "--rerank", "--json", "--no-reinforce").json()
    parts = [h["parts"] for h in hits]
    assert sorted(p["rerank_before"] for p in parts[:3]) == [1, 2, 3]
    assert all(p["rerank"] is None for p in parts[3:])
    plain = cli("memory", "recall", "harbour", "--json", "--no-reinforce").json()
    assert all(h["parts"]["rerank"] is None for h in plain)
    assert [h["fact"]["id"] for h in hits[3:]] == [h["fact"]["id"] for h in plain[3:]]
    cascade = cli("memory", "cascade", "harbour", "--rerank", "--json", "--no-reinforce").json()
    assert cascade["hits"][0]["parts"]["rerank"] is not None
