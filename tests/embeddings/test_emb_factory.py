"""build_provider: choosing, locating and checking the configured provider."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from embedding_helpers import EmbeddingsHandler, HubHandler

from embornal.adapters.config import EmbeddingConfig
from embornal.adapters.embeddings import (
    DEFAULT_MODEL,
    DEFAULT_MODEL_NAME,
    OnnxEmbedder,
    OpenAICompatEmbedder,
    build_provider,
    is_model_cached,
    list_models,
    model_dir,
)
from embornal.adapters.embeddings import factory as factory_module
from embornal.errors import ConfigError, VectorWidthMismatch

MINILM_DIMS = 384


@pytest.fixture
def no_download(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the factory tries to download anything."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the factory tried to download")

    monkeypatch.setattr(factory_module, "download_model", refuse)
    monkeypatch.setattr(factory_module, "resolve_onnx_spec", refuse)


def fake_default_model(cache_dir: Path, onnx_dir: Path) -> Path:
    """Lay the MiniLM export (with its int8 file) out in the cache as if it were the
    default model."""
    directory = model_dir(cache_dir, DEFAULT_MODEL_NAME)
    (directory / "onnx").mkdir(parents=True)
    assert DEFAULT_MODEL.int8_file is not None
    for name in (*DEFAULT_MODEL.files, DEFAULT_MODEL.int8_file):
        source = onnx_dir / Path(name).name
        (directory / name).symlink_to(source)
    return directory


def test_default_model_constant() -> None:
    assert DEFAULT_MODEL.dims == 384 == EmbeddingConfig().dims
    assert DEFAULT_MODEL_NAME == "intfloat/multilingual-e5-small"
    assert "onnx/model.onnx" in DEFAULT_MODEL.files
    assert any(f.endswith("tokenizer.json") for f in DEFAULT_MODEL.files)
    assert DEFAULT_MODEL.int8 and DEFAULT_MODEL.int8_file == "onnx/model_int8.onnx"


def test_the_default_model_is_not_cached_without_its_int8_file(
    tmp_path: Path, onnx_minilm_dir: Path, no_download: None
) -> None:
    directory = model_dir(tmp_path, DEFAULT_MODEL_NAME)
    (directory / "onnx").mkdir(parents=True)
    for name in DEFAULT_MODEL.files:
        (directory / name).symlink_to(onnx_minilm_dir / Path(name).name)
    assert not is_model_cached(tmp_path, DEFAULT_MODEL)
    assert build_provider(EmbeddingConfig(), tmp_path) is None


def test_off_gives_none(tmp_path: Path, no_download: None) -> None:
    assert build_provider(EmbeddingConfig(provider="off"), tmp_path) is None


def test_auto_without_a_cached_model_is_keyword_only(tmp_path: Path, no_download: None) -> None:
    assert build_provider(EmbeddingConfig(), tmp_path) is None
    assert build_provider(EmbeddingConfig(model="acme/other-model"), tmp_path) is None
    assert not (tmp_path / "models").exists()


def test_auto_with_a_partial_download_is_keyword_only(tmp_path: Path, no_download: None) -> None:
    directory = model_dir(tmp_path, DEFAULT_MODEL_NAME)
    (directory / "onnx").mkdir(parents=True)
    (directory / "onnx" / "model.onnx.part").write_bytes(b"half")
    assert build_provider(EmbeddingConfig(), tmp_path) is None


def test_auto_rejects_a_model_name_that_is_no_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"embedding\.model"):
        build_provider(EmbeddingConfig(model="../../etc"), tmp_path)


def test_unknown_provider(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        build_provider(EmbeddingConfig(provider="magic"), tmp_path)
    assert "sentence-transformers" in caught.value.hint


def test_auto_uses_the_cached_default_model(
    tmp_path: Path, onnx_minilm_int8_dir: Path, no_download: None
) -> None:
    fake_default_model(tmp_path, onnx_minilm_int8_dir)
    assert is_model_cached(tmp_path, DEFAULT_MODEL)
    provider = build_provider(EmbeddingConfig(dims=MINILM_DIMS), tmp_path)
    assert isinstance(provider, OnnxEmbedder)
    # The int8 file is the one that loads, and the identity says so.
    assert provider.int8 and provider.model_file.name == "model_int8.onnx"
    assert provider.identity == f"{DEFAULT_MODEL_NAME}+int8:{MINILM_DIMS}"
    # e5 prefixes by default, config overrides them.
    assert (provider.query_prefix, provider.document_prefix) == ("query: ", "passage: ")
    custom = build_provider(
        EmbeddingConfig(dims=MINILM_DIMS, query_prefix="q> ", document_prefix="", batch_size=4),
        tmp_path,
    )
    assert isinstance(custom, OnnxEmbedder)
    assert (custom.query_prefix, custom.document_prefix, custom.batch_size) == ("q> ", "", 4)


def test_width_mismatch_names_the_setting_and_the_reindex(
    tmp_path: Path, onnx_minilm_int8_dir: Path, no_download: None
) -> None:
    fake_default_model(tmp_path, onnx_minilm_int8_dir)
    with pytest.raises(VectorWidthMismatch) as caught:
        build_provider(EmbeddingConfig(dims=768), tmp_path)  # the model gives 384
    assert "384" in caught.value.message and "768" in caught.value.message
    assert "embedding.dims" in caught.value.hint
    assert "embornal memory reindex --all" in caught.value.hint

    with pytest.raises(VectorWidthMismatch):
        build_provider(
            EmbeddingConfig(provider="onnx", model_path=str(onnx_minilm_int8_dir), dims=768),
            tmp_path,
        )


def test_auto_with_model_path(tmp_path: Path, onnx_minilm_dir: Path, no_download: None) -> None:
    cfg = EmbeddingConfig(model_path=str(onnx_minilm_dir), model="minilm", dims=MINILM_DIMS)
    provider = build_provider(cfg, tmp_path)
    assert isinstance(provider, OnnxEmbedder)
    assert provider.identity == f"minilm:{MINILM_DIMS}"


def test_auto_without_onnxruntime_is_keyword_only(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    no_download: None,
) -> None:
    directory = model_dir(tmp_path, DEFAULT_MODEL_NAME)
    for name in (*DEFAULT_MODEL.files, str(DEFAULT_MODEL.int8_file)):
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(b"x")
    monkeypatch.setattr(factory_module, "_onnx_available", lambda: False)
    with caplog.at_level(logging.WARNING, logger="embornal"):
        assert build_provider(EmbeddingConfig(), tmp_path) is None
    assert "embornal[semantic]" in caplog.text


def test_onnx_provider_downloads_the_default_model(
    tmp_path: Path,
    onnx_minilm_dir: Path,
    server_factory: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = {
        f"/{DEFAULT_MODEL_NAME}/resolve/main/{name}": (
            onnx_minilm_dir / Path(name).name
        ).read_bytes()
        for name in DEFAULT_MODEL.files
    }
    hub = server_factory(
        HubHandler,
        files=files,
        lfs={},
        drop_once=set(),
        ignore_range=False,
        listing={},
        requests=[],
    )
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    seen: list[tuple[str, int, int]] = []
    cfg = EmbeddingConfig(provider="onnx", dims=MINILM_DIMS)
    provider = build_provider(cfg, tmp_path, progress=lambda f, d, t: seen.append((f, d, t)))
    assert isinstance(provider, OnnxEmbedder)
    # Fetched, checked, then quantized to int8 on this machine: the int8 file loads.
    assert {f for f, _, _ in seen} == {*DEFAULT_MODEL.files, DEFAULT_MODEL.int8_file}
    size = len(files[f"/{DEFAULT_MODEL_NAME}/resolve/main/onnx/model.onnx"])
    assert ("onnx/model.onnx", size, size) in seen
    assert [(m.name, m.complete) for m in list_models(tmp_path)] == [(DEFAULT_MODEL_NAME, True)]
    assert provider.int8 and provider.identity == f"{DEFAULT_MODEL_NAME}+int8:{MINILM_DIMS}"
    int8_file = model_dir(tmp_path, DEFAULT_MODEL_NAME) / "onnx" / "model_int8.onnx"
    assert provider.model_file == int8_file and int8_file.stat().st_size < size / 2
    manifest = json.loads((int8_file.parent.parent / ".embornal-model.json").read_text())
    entry = manifest["files"]["onnx/model_int8.onnx"]
    assert entry["quantized_from"] == "onnx/model.onnx"
    assert entry["sha256"] == hashlib.sha256(int8_file.read_bytes()).hexdigest()
    query = provider.embed_query("hello")
    assert len(query) == MINILM_DIMS and abs(sum(x * x for x in query) - 1.0) < 1e-4
    # Close to the fp32 export's vector, not equal to it.
    fp32 = OnnxEmbedder(onnx_minilm_dir, name=DEFAULT_MODEL_NAME).embed_query("hello")
    cosine = sum(a * b for a, b in zip(query, fp32, strict=True))
    assert 0.8 < cosine < 0.99999

    # Now that it is cached, auto finds it without asking the hub.
    before = len(hub.httpd.requests)
    assert isinstance(build_provider(EmbeddingConfig(dims=MINILM_DIMS), tmp_path), OnnxEmbedder)
    assert len(hub.httpd.requests) == before


def test_onnx_provider_downloads_another_model_from_its_listing(
    tmp_path: Path,
    onnx_minilm_dir: Path,
    server_factory: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = "acme/mini"
    names = ["onnx/model.onnx", "tokenizer.json", "config.json", "sentence_bert_config.json"]
    files = {
        f"/{repo}/resolve/main/{name}": (onnx_minilm_dir / Path(name).name).read_bytes()
        for name in names
    }
    hub = server_factory(
        HubHandler,
        files=files,
        lfs={},
        drop_once=set(),
        ignore_range=False,
        listing={repo: [*names, "README.md", "pytorch_model.bin"]},
        requests=[],
    )
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    provider = build_provider(
        EmbeddingConfig(provider="onnx", model=repo, dims=MINILM_DIMS), tmp_path
    )
    assert isinstance(provider, OnnxEmbedder)
    assert provider.identity == f"{repo}:{MINILM_DIMS}"
    assert provider.max_tokens == 256
    assert not any("pytorch_model" in r["path"] for r in hub.httpd.requests)


def test_sentence_transformers_provider(tmp_path: Path, minilm_dir: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    cfg = EmbeddingConfig(
        provider="sentence-transformers", model_path=str(minilm_dir), dims=MINILM_DIMS
    )
    provider = build_provider(cfg, tmp_path)
    assert provider is not None
    assert provider.dims == MINILM_DIMS
    with pytest.raises(VectorWidthMismatch):
        build_provider(
            EmbeddingConfig(provider="sentence-transformers", model_path=str(minilm_dir), dims=768),
            tmp_path,
        )


def test_openai_provider_needs_url_and_model(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="base_url"):
        build_provider(EmbeddingConfig(provider="openai", model="m"), tmp_path)
    with pytest.raises(ConfigError, match="base_url"):
        build_provider(EmbeddingConfig(provider="openai", base_url="http://127.0.0.1:1"), tmp_path)


def test_openai_provider_checks_the_width_on_use(tmp_path: Path, server_factory: Any) -> None:
    server = server_factory(EmbeddingsHandler, mode="ok", dims=8, requests=[])
    cfg = EmbeddingConfig(provider="openai", base_url=server.url, model="m", dims=16)
    provider = build_provider(cfg, tmp_path)
    assert isinstance(provider, OpenAICompatEmbedder)
    assert server.httpd.requests == []  # building asks the server nothing
    with pytest.raises(VectorWidthMismatch):
        provider.embed_query("x")
    ok = build_provider(
        EmbeddingConfig(provider="openai", base_url=server.url, model="m", dims=8), tmp_path
    )
    assert ok is not None and len(ok.embed_query("x")) == 8


def test_openai_provider_takes_input_type_from_the_config(
    tmp_path: Path, server_factory: Any
) -> None:
    server = server_factory(EmbeddingsHandler, mode="ok", dims=16, requests=[])
    cfg = EmbeddingConfig(
        provider="openai", base_url=server.url, model="e5-small", dims=16, input_type=True
    )
    provider = build_provider(cfg, tmp_path)
    assert provider is not None
    provider.embed_query("alpha")
    assert server.httpd.requests[-1]["body"]["input_type"] == "query"
    assert server.httpd.requests[-1]["body"]["input"] == ["alpha"]
