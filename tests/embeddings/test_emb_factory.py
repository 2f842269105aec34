"""build_provider: choosing, locating and checking the configured provider."""

from __future__ import annotations

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
    """Lay the MiniLM export out in the cache as if it were the default model."""
    directory = model_dir(cache_dir, DEFAULT_MODEL_NAME)
    (directory / "onnx").mkdir(parents=True)
    for name in DEFAULT_MODEL.files:
        source = onnx_dir / Path(name).name
        (directory / name).symlink_to(source)
    return directory


def test_default_model_constant() -> None:
    assert DEFAULT_MODEL.dims == 768 == EmbeddingConfig().dims
    assert "onnx/model.onnx" in DEFAULT_MODEL.files
    assert any(f.endswith("tokenizer.json") for f in DEFAULT_MODEL.files)


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
    tmp_path: Path, onnx_minilm_dir: Path, no_download: None
) -> None:
    fake_default_model(tmp_path, onnx_minilm_dir)
    assert is_model_cached(tmp_path, DEFAULT_MODEL)
    provider = build_provider(EmbeddingConfig(dims=MINILM_DIMS), tmp_path)
    assert isinstance(provider, OnnxEmbedder)
    assert provider.identity == f"{DEFAULT_MODEL_NAME}:{MINILM_DIMS}"
    # e5 prefixes by default, config overrides them.
    assert (provider.query_prefix, provider.document_prefix) == ("query: ", "passage: ")
    custom = build_provider(
        EmbeddingConfig(dims=MINILM_DIMS, query_prefix="q> ", document_prefix="", batch_size=4),
        tmp_path,
    )
    assert isinstance(custom, OnnxEmbedder)
    assert (custom.query_prefix, custom.document_prefix, custom.batch_size) == ("q> ", "", 4)


def test_width_mismatch_names_the_setting_and_the_reindex(
    tmp_path: Path, onnx_minilm_dir: Path, no_download: None
) -> None:
    fake_default_model(tmp_path, onnx_minilm_dir)
    with pytest.raises(VectorWidthMismatch) as caught:
        build_provider(EmbeddingConfig(), tmp_path)  # dims 768, the model gives 384
    assert "384" in caught.value.message and "768" in caught.value.message
    assert "embedding.dims" in caught.value.hint
    assert "embornal memory reindex --all" in caught.value.hint

    with pytest.raises(VectorWidthMismatch):
        build_provider(EmbeddingConfig(provider="onnx", model_path=str(onnx_minilm_dir)), tmp_path)


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
    for name in DEFAULT_MODEL.files:
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
    assert {f for f, _, _ in seen} == set(DEFAULT_MODEL.files)
    size = len(files[f"/{DEFAULT_MODEL_NAME}/resolve/main/onnx/model.onnx"])
    assert ("onnx/model.onnx", size, size) in seen
    assert [(m.name, m.complete) for m in list_models(tmp_path)] == [(DEFAULT_MODEL_NAME, True)]
    assert len(provider.embed_query("hello")) == MINILM_DIMS

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
            EmbeddingConfig(provider="sentence-transformers", model_path=str(minilm_dir)),
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
