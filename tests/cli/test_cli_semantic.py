"""Embeddings through the console script: recall modes, reindex, models in the cache.

No real model is loaded: an OpenAI-style embeddings server and a model hub run on
127.0.0.1 inside the test.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import EMBORNAL, Run
from cli_servers import WIDTH, EmbeddingsHandler, HubHandler, LocalServer

OFF = {**os.environ, "EMBORNAL_EMBEDDING": "off"}


def _config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(text, encoding="utf-8")


def _openai(home: Path, url: str) -> None:
    _config(
        home,
        f"embedding:\n  provider: openai\n  base_url: {url}/v1\n"
        f"  model: toy-embed\n  dims: {WIDTH}\n",
    )


def test_recall_modes_without_a_model(cli: Run, stored: Callable[..., str]) -> None:
    stored("/rocks", "Quartz is a hard mineral.")
    r = cli("memory", "recall", "quartz", "--mode", "keyword", "--json")
    assert r.code == 0 and r.err == ""
    assert [h["parts"]["method"] for h in r.json()] == ["keyword+strength"]
    r = cli("memory", "recall", "quartz")  # auto: keyword, with no word about models
    assert r.code == 0 and r.err == "" and "Quartz is a hard mineral." in r.out

    r = cli("memory", "recall", "quartz", "--mode", "vector")
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "needs an embedding model" in r.err
    assert "embornal model pull" in r.err and "--mode keyword" in r.err
    r = cli("--json", "memory", "recall", "quartz", "--mode", "hybrid", env=OFF)
    assert r.code == 2 and "EMBORNAL_EMBEDDING=off" in r.json()["message"]
    assert cli("memory", "recall", "quartz", "--mode", "fuzzy").code == 2
    r = cli("memory", "recall", "--mode", "vector", "--plain")  # no query: the strongest
    assert r.code == 0 and "/rocks\tQuartz" in r.out


def test_reindex_needs_a_model(cli: Run, stored: Callable[..., str]) -> None:
    stored("/rocks", "Quartz is a hard mineral.")
    r = cli("memory", "reindex", env=OFF)
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "EMBORNAL_EMBEDDING=off turns embeddings off" in r.err and "hint: Unset" in r.err
    r = cli("--json", "memory", "reindex")
    assert r.code == 2 and "none is on disk" in r.json()["message"]
    assert "embornal model pull" in r.json()["hint"]
    assert cli("memory", "reindex", "--limit", "0").code == 2


def test_reindex_and_recall_by_meaning(
    cli: Run, embornal_home: Path, stored: Callable[..., str]
) -> None:
    stored("/rocks", "Quartz is a hard mineral.")
    stored("/food", "Bread needs flour and water.")
    before = cli("memory", "reindex", "--json", env=OFF)
    assert before.code == 2
    with LocalServer(EmbeddingsHandler) as server:
        _openai(embornal_home, server.url)
        r = cli("memory", "reindex", "--limit", "3", "--json")
        assert r.code == 0, r.err
        first = r.json()
        assert first["embedded"] == 3 and first["model"] == f"toy-embed:{WIDTH}"
        assert r.err == ""  # stderr is no terminal: no progress line
        r = cli("memory", "reindex")
        assert r.code == 0, r.err
        rest = first["remaining"]
        assert r.out == f"embedded {rest} facts with toy-embed:{WIDTH}; 0 still wait for a vector\n"

        hits = cli("memory", "recall", "quartz", "mineral", "--mode", "vector", "--json").json()
        assert hits[0]["fact"]["path"] == "/rocks"
        assert hits[0]["parts"]["method"] == "vector+strength"
        assert hits[0]["parts"]["vector"] > 0.5
        r = cli("memory", "recall", "quartz", "--mode", "vector", "--explain", "--no-reinforce")
        assert "= vector " in r.out and "ranks     keyword -, vector 1" in r.out
        hits = cli("memory", "recall", "quartz", "--json", "--no-reinforce").json()  # auto
        assert hits[0]["parts"]["method"].startswith("hybrid")

        r = cli("memory", "store", "/rocks", "Granite holds quartz.")  # embedded when stored
        assert r.code == 0 and r.err == ""
        assert cli("memory", "reindex", "--json").json()["embedded"] == 0
        again = cli("memory", "reindex", "--all", "--json").json()
        assert again["embedded"] == first["embedded"] + first["remaining"] + 1

    # The server is gone: keyword use goes on, the new fact waits for a vector.
    r = cli("memory", "store", "/rocks", "Opal is soft.")
    assert r.code == 0, r.err
    r = cli("memory", "recall", "opal", "--plain")
    assert (r.code, r.out) == (0, "/rocks\tOpal is soft.\n")
    r = cli("memory", "reindex")
    assert r.code == 6 and "cannot reach the embedding server" in r.err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_reindex_draws_progress_on_a_terminal(
    cli: Run, embornal_home: Path, stored: Callable[..., str]
) -> None:
    stored("/rocks", "Quartz is a hard mineral.")
    with LocalServer(EmbeddingsHandler) as server:
        _openai(embornal_home, server.url)
        master, slave = os.openpty()
        try:
            proc = subprocess.run(
                [str(EMBORNAL), "memory", "reindex"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=slave,
                env=os.environ.copy(),
                timeout=60,
            )
            os.close(slave)
            shown = os.read(master, 65536).decode()
        finally:
            os.close(master)
    assert proc.returncode == 0 and proc.stdout.decode().startswith("embedded ")
    assert shown.startswith("\rembedding facts [") and shown.endswith("100%\r\n")


def test_progress_line_redraws_in_place() -> None:
    from embornal.interfaces.cli.progress import DownloadProgress, ProgressLine, fmt_bytes

    out = io.StringIO()
    line = ProgressLine(out, enabled=True)
    line.update("facts", 1, 4)
    line.update("facts", 4, 4)  # the last step always draws
    line.finish()
    assert out.getvalue() == (
        "\rfacts [######..................] 1/4  25%\rfacts [########################] 4/4 100%\n"
    )
    quiet = io.StringIO()
    ProgressLine(quiet).update("facts", 1, 4)  # a StringIO is no terminal
    assert quiet.getvalue() == ""
    out = io.StringIO()
    pulled = DownloadProgress(out, enabled=True)
    pulled("a.onnx", 2_000_000, 2_000_000)
    pulled("b.json", 0, 0)
    pulled.finish()
    assert out.getvalue() == (
        "\ra.onnx [########################] 2.0 MB/2.0 MB 100%\n\rb.json 0 B\n"
    )
    assert [fmt_bytes(n) for n in (999, 1000, 1_130_000_000)] == ["999 B", "1.0 kB", "1.1 GB"]


def test_a_model_that_fails_to_load_leaves_keyword_recall(
    cli: Run, embornal_home: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken-model"
    broken.mkdir()
    _config(embornal_home, f"embedding:\n  provider: onnx\n  model_path: {broken}\n")
    r = cli("memory", "store", "/rocks", "Quartz is a hard mineral.")
    assert r.code == 0
    assert r.err.startswith("embornal: warning: ") and r.err.count("\n") == 1
    assert "recall is by keyword only" in r.err
    r = cli("memory", "recall", "quartz", "--plain")
    assert (r.code, r.out) == (0, "/rocks\tQuartz is a hard mineral.\n")
    assert r.err.startswith("embornal: warning: ") and r.err.count("\n") == 1
    r = cli("memory", "recall", "quartz", "--mode", "keyword")  # loads no model at all
    assert r.code == 0 and r.err == ""
    assert cli("memory", "ls").err == ""  # browsing needs no model either
    r = cli("memory", "recall", "quartz", "--mode", "vector")
    assert r.code == 6 and "failed to load" in r.err and "--mode keyword" in r.err
    assert r.err.count("\n") == 1  # the error, not the warning too
    r = cli("memory", "reindex")
    assert r.code == 6 and "warning" not in r.err and r.err.count("\n") == 1


@pytest.fixture
def hub() -> LocalServer:
    files = {
        "acme/tiny-embed/onnx/model.onnx": b"\x08\x07" * 2000,
        "acme/tiny-embed/onnx/tokenizer.json": b'{"model": {}}',
        "acme/tiny-embed/README.md": b"# tiny",
    }
    return LocalServer(HubHandler, files=files)


def test_model_pull_ls_rm(cli: Run, embornal_home: Path, hub: LocalServer) -> None:
    r = cli("model", "ls")
    assert r.code == 0 and r.out.startswith("(no models in ") and "model pull" in r.out
    assert cli("model", "ls", "--json").json() == []

    with hub:
        env = {**os.environ, "HF_ENDPOINT": hub.url}
        r = cli("model", "pull", "acme/tiny-embed", "--json", env=env)
        assert r.code == 0, r.err
        pulled = r.json()
        assert pulled["name"] == "acme/tiny-embed" and pulled["size_bytes"] >= 4000
        assert sorted(pulled["files"]) == ["onnx/model.onnx", "onnx/tokenizer.json"]
        assert "embedding.model: acme/tiny-embed" in r.err  # how to use it
        model_dir = embornal_home / "models" / "acme--tiny-embed"
        assert (model_dir / "onnx" / "model.onnx").stat().st_size == 4000
        r = cli("model", "pull", "acme/none", env=env)
        assert r.code == 6 and r.err.startswith("embornal: ") and r.err.count("\n") == 1

    listed = cli("model", "ls", "--json").json()
    assert [(m["name"], m["complete"], m["in_use"]) for m in listed] == [
        ("acme/tiny-embed", True, False)
    ]
    r = cli("model", "ls")
    assert "| acme/tiny-embed |" in r.out and "| complete |" in r.out and "kB" in r.out
    # A model directory in the cache that is not the configured one changes nothing.
    r = cli("memory", "recall", "anything")
    assert r.code == 0 and r.err == ""

    assert cli("model", "rm", "acme/other").code == 3
    r = cli("model", "rm", "acme/tiny-embed")
    assert r.code == 0 and r.out.startswith("removed acme/tiny-embed (") and "freed" in r.out
    assert not model_dir.exists() and cli("model", "ls", "--json").json() == []


def test_default_model_that_is_not_loadable_warns_once(
    cli: Run, embornal_home: Path, stored: Callable[..., str]
) -> None:
    """``auto`` finds the default model on disk; garbage weights: one warning, keyword."""
    files = {
        "intfloat/multilingual-e5-small/onnx/model.onnx": b"not an onnx model",
        "intfloat/multilingual-e5-small/tokenizer.json": b"{}",
        "intfloat/multilingual-e5-small/config.json": b"{}",
    }
    stored("/rocks", "Quartz is a hard mineral.")
    with LocalServer(HubHandler, files=files) as server:
        r = cli("model", "pull", env={**os.environ, "HF_ENDPOINT": server.url})
    # Fetched, but the int8 quantization of garbage fails: one line, the model incomplete.
    assert r.code != 0 and "quantize" in r.err and r.err.count("\n") <= 2, r.err
    listed = cli("model", "ls", "--json").json()[0]
    assert listed["name"] == "intfloat/multilingual-e5-small" and listed["complete"] is True
    model = Path(listed["path"])
    assert (model / "onnx" / "model.onnx").is_file()
    assert not (model / "onnx" / "model_int8.onnx").exists()
    (model / "onnx" / "model_int8.onnx").write_bytes(b"not an onnx model either")
    assert cli("model", "ls", "--json").json()[0]["in_use"] is True
    r = cli("memory", "recall", "quartz", "--plain")
    assert (r.code, r.out) == (0, "/rocks\tQuartz is a hard mineral.\n")
    assert r.err.startswith("embornal: warning: ") and r.err.count("\n") == 1
    r = cli("memory", "recall", "quartz", "--plain", env=OFF)
    assert (r.code, r.err) == (0, "")
