"""Model downloads against a local server laid out like a Hugging Face hub."""

from __future__ import annotations

import hashlib
import json
import os
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from embedding_helpers import HubHandler

from embornal.adapters.embeddings import (
    ModelSpec,
    download_model,
    is_model_cached,
    list_models,
    model_dir,
    remove_model,
)
from embornal.adapters.embeddings.download import (
    MANIFEST_NAME,
    resolve_onnx_spec,
    select_onnx_files,
)
from embornal.errors import EmbeddingError, InvalidInput, NotFound

REPO = "acme/tiny-embedder"
BIG = random.Random(5).randbytes(300_000)
SMALL = b'{"hidden_size": 8}'


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resolve_path(filename: str, repo: str = REPO, revision: str = "main") -> str:
    return f"/{repo}/resolve/{revision}/{filename}"


@pytest.fixture
def hub(server_factory: Any) -> Any:
    files = {
        resolve_path("onnx/model.onnx"): BIG,
        resolve_path("config.json"): SMALL,
    }
    return server_factory(
        HubHandler,
        files=files,
        lfs={},
        drop_once=set(),
        ignore_range=False,
        listing={},
        requests=[],
    )


SPEC = ModelSpec(repo=REPO, files=("onnx/model.onnx", "config.json"))


class Progress:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, filename: str, done: int, total: int) -> None:
        self.calls.append((filename, done, total))


def test_downloads_files_with_progress_and_manifest(hub: Any, tmp_path: Path) -> None:
    progress = Progress()
    directory = download_model(SPEC, tmp_path, endpoint=hub.url, progress=progress)
    assert directory == tmp_path / "models" / "acme--tiny-embedder"
    assert (directory / "onnx" / "model.onnx").read_bytes() == BIG
    assert (directory / "config.json").read_bytes() == SMALL
    assert not list(directory.rglob("*.part"))
    assert ("onnx/model.onnx", len(BIG), len(BIG)) in progress.calls
    assert ("config.json", len(SMALL), len(SMALL)) in progress.calls
    done = [d for f, d, _ in progress.calls if f == "onnx/model.onnx"]
    assert done == sorted(done)
    manifest = json.loads((directory / MANIFEST_NAME).read_text())
    assert manifest["repo"] == REPO
    assert manifest["files"]["onnx/model.onnx"] == {"size": len(BIG), "sha256": sha(BIG)}
    assert is_model_cached(tmp_path, SPEC)

    (model,) = list_models(tmp_path)
    assert model.name == REPO and model.complete and model.revision == "main"
    assert model.size_bytes >= len(BIG) + len(SMALL)

    # A second call finds everything in place and asks the server nothing.
    before = len(hub.httpd.requests)
    again = Progress()
    download_model(SPEC, tmp_path, endpoint=hub.url, progress=again)
    assert len(hub.httpd.requests) == before
    assert ("onnx/model.onnx", len(BIG), len(BIG)) in again.calls


def test_endpoint_from_hf_endpoint(
    hub: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", hub.url + "/")
    download_model(SPEC, tmp_path)
    assert hub.httpd.requests[0]["path"] == resolve_path("onnx/model.onnx")


def test_interrupted_download_resumes_with_range(hub: Any, tmp_path: Path) -> None:
    hub.httpd.drop_once.add(resolve_path("onnx/model.onnx"))
    with pytest.raises(EmbeddingError, match="interrupted") as caught:
        download_model(SPEC, tmp_path, endpoint=hub.url)
    assert "again" in caught.value.hint
    part = model_dir(tmp_path, REPO) / "onnx" / "model.onnx.part"
    kept = part.stat().st_size
    assert 0 < kept < len(BIG)
    assert not (model_dir(tmp_path, REPO) / "onnx" / "model.onnx").exists()
    assert not is_model_cached(tmp_path, SPEC)
    assert [m.complete for m in list_models(tmp_path)] == [False]

    progress = Progress()
    download_model(SPEC, tmp_path, endpoint=hub.url, progress=progress)
    model_requests = [r for r in hub.httpd.requests if r["path"].endswith("model.onnx")]
    assert model_requests[0]["range"] is None
    assert model_requests[1]["range"] == f"bytes={kept}-"
    assert progress.calls[0] == ("onnx/model.onnx", kept, len(BIG))
    final = model_dir(tmp_path, REPO) / "onnx" / "model.onnx"
    assert final.read_bytes() == BIG
    assert not part.exists()
    manifest = json.loads((model_dir(tmp_path, REPO) / MANIFEST_NAME).read_text())
    assert manifest["files"]["onnx/model.onnx"]["sha256"] == sha(BIG)


def test_server_ignoring_range_restarts_cleanly(hub: Any, tmp_path: Path) -> None:
    hub.httpd.ignore_range = True
    part = model_dir(tmp_path, REPO) / "onnx" / "model.onnx.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"\x00" * 1000)  # a leftover that must not stay in front
    download_model(SPEC, tmp_path, endpoint=hub.url)
    assert hub.httpd.requests[0]["range"] == "bytes=1000-"
    assert (part.parent / "model.onnx").read_bytes() == BIG
    assert not part.exists()


def test_part_longer_than_the_file_starts_over(hub: Any, tmp_path: Path) -> None:
    part = model_dir(tmp_path, REPO) / "config.json.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"x" * (len(SMALL) + 10))
    download_model(SPEC, tmp_path, endpoint=hub.url)
    assert (part.parent / "config.json").read_bytes() == SMALL


def test_known_checksum_mismatch_is_an_error(hub: Any, tmp_path: Path) -> None:
    spec = ModelSpec(repo=REPO, files=("config.json",), sha256={"config.json": "0" * 64})
    with pytest.raises(EmbeddingError, match="corrupt"):
        download_model(spec, tmp_path, endpoint=hub.url)
    directory = model_dir(tmp_path, REPO)
    assert not (directory / "config.json").exists()
    assert not (directory / "config.json.part").exists()

    good = ModelSpec(repo=REPO, files=("config.json",), sha256={"config.json": sha(SMALL)})
    download_model(good, tmp_path, endpoint=hub.url)
    assert (directory / "config.json").read_bytes() == SMALL


def test_hub_announced_checksum_via_redirect(hub: Any, tmp_path: Path) -> None:
    path = resolve_path("onnx/model.onnx")
    hub.httpd.lfs[path] = sha(b"something else")
    with pytest.raises(EmbeddingError, match="corrupt"):
        download_model(SPEC, tmp_path, endpoint=hub.url)
    assert hub.httpd.requests[1]["path"] == "/cdn" + path

    # Announced correctly, with an interruption: the resume goes through the
    # redirect too, keeps its Range header, and the whole file is checked.
    hub.httpd.lfs[path] = sha(BIG)
    hub.httpd.drop_once.add(path)
    with pytest.raises(EmbeddingError, match="interrupted"):
        download_model(SPEC, tmp_path, endpoint=hub.url)
    download_model(SPEC, tmp_path, endpoint=hub.url)
    assert hub.httpd.requests[-2]["path"] == "/cdn" + path
    assert hub.httpd.requests[-2]["range"] is not None
    assert (model_dir(tmp_path, REPO) / "onnx" / "model.onnx").read_bytes() == BIG


def test_token_goes_to_the_hub_not_to_the_redirect(hub: Any, tmp_path: Path) -> None:
    path = resolve_path("onnx/model.onnx")
    hub.httpd.lfs[path] = sha(BIG)
    download_model(SPEC, tmp_path, endpoint=hub.url, token="hf_secret")
    by_path = {r["path"]: r["auth"] for r in hub.httpd.requests}
    assert by_path[path] == "Bearer hf_secret"
    assert by_path["/cdn" + path] is None


def test_missing_file_is_an_error_with_hint(hub: Any, tmp_path: Path) -> None:
    spec = ModelSpec(repo=REPO, files=("nope.bin",))
    with pytest.raises(EmbeddingError, match="404") as caught:
        download_model(spec, tmp_path, endpoint=hub.url)
    assert "model name" in caught.value.hint


def test_unreachable_hub_is_an_error(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(EmbeddingError, match="cannot download"):
        download_model(SPEC, tmp_path, endpoint=f"http://127.0.0.1:{port}", timeout=5)


@pytest.mark.parametrize("filename", ["../escape", "/etc/passwd", "a/../../b", "x.part", ""])
def test_rejects_file_names_outside_the_model(filename: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        download_model(ModelSpec(repo=REPO, files=(filename,)), tmp_path, endpoint="http://x")


@pytest.mark.parametrize("repo", ["../x", "a/b/c", "", "/abs", "a/.."])
def test_rejects_bad_repository_names(repo: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        model_dir(tmp_path, repo)


def test_list_and_remove_models(hub: Any, tmp_path: Path) -> None:
    assert list_models(tmp_path) == []
    download_model(SPEC, tmp_path, endpoint=hub.url)
    stray = tmp_path / "models" / "someone--else"
    stray.mkdir()
    (stray / "weights.bin").write_bytes(b"1234")
    names = [(m.name, m.complete) for m in list_models(tmp_path)]
    assert names == [(REPO, True), ("someone/else", False)]

    assert remove_model(tmp_path, "someone--else") == 4
    freed = remove_model(tmp_path, REPO)
    assert freed >= len(BIG) + len(SMALL)
    assert list_models(tmp_path) == []
    assert os.listdir(tmp_path / "models") == []
    with pytest.raises(NotFound) as caught:
        remove_model(tmp_path, REPO)
    assert "embornal model ls" in caught.value.hint


def test_resolve_onnx_spec_from_the_hub_listing(hub: Any) -> None:
    hub.httpd.listing[REPO] = [
        ".gitattributes",
        "README.md",
        "config.json",
        "onnx/model.onnx",
        "onnx/model_quantized.onnx",
        "tokenizer.json",
        "1_Pooling/config.json",
    ]
    spec = resolve_onnx_spec(REPO, endpoint=hub.url)
    assert spec.repo == REPO
    assert spec.files == (
        "onnx/model.onnx",
        "tokenizer.json",
        "config.json",
        "1_Pooling/config.json",
    )
    with pytest.raises(EmbeddingError, match="404"):
        resolve_onnx_spec("acme/missing", endpoint=hub.url)


def test_select_onnx_files() -> None:
    assert select_onnx_files(
        ["onnx/model.onnx", "onnx/model.onnx_data", "onnx/tokenizer.json", "onnx/config.json"]
    ) == ("onnx/model.onnx", "onnx/tokenizer.json", "onnx/model.onnx_data", "onnx/config.json")
    assert select_onnx_files(["model.onnx", "tokenizer.json", "sentence_bert_config.json"]) == (
        "model.onnx",
        "tokenizer.json",
        "sentence_bert_config.json",
    )
    with pytest.raises(EmbeddingError, match="no ONNX export"):
        select_onnx_files(["pytorch_model.bin", "tokenizer.json"])
    with pytest.raises(EmbeddingError, match="no tokenizer"):
        select_onnx_files(["model.onnx"])
