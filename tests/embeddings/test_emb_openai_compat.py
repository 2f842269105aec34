"""The OpenAI-compatible provider against a local stub of ``/v1/embeddings``."""

from __future__ import annotations

import math
import socket
from typing import Any

import pytest
from embedding_helpers import EmbeddingsHandler

from embornal.adapters.embeddings import EmbeddingProvider, FakeEmbedder, OpenAICompatEmbedder
from embornal.adapters.embeddings.openai_compat import embeddings_url
from embornal.errors import EmbeddingError, VectorWidthMismatch


def start(server_factory: Any, mode: str = "ok", dims: int = 16) -> Any:
    return server_factory(EmbeddingsHandler, mode=mode, dims=dims, requests=[])


def test_embeds_in_batches_in_order(server_factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBORNAL_TEST_KEY", "sk-test")
    server = start(server_factory)
    provider = OpenAICompatEmbedder(
        server.url + "/v1",
        "intfloat/multilingual-e5-base",
        api_key_env="EMBORNAL_TEST_KEY",
        dims=16,
        batch_size=2,
    )
    assert isinstance(provider, EmbeddingProvider)
    assert provider.identity == "intfloat/multilingual-e5-base:16"
    texts = ["alpha beta", "gamma", "東京タワー", "été à Málaga", "delta"]
    vectors = provider.embed_documents(texts)
    fake = FakeEmbedder(16)
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(fake.embed_query("passage: " + text))
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-9)
    assert [len(r["body"]["input"]) for r in server.httpd.requests] == [2, 2, 1]
    assert all(r["auth"] == "Bearer sk-test" for r in server.httpd.requests)
    assert server.httpd.requests[0]["body"]["model"] == "intfloat/multilingual-e5-base"
    query = provider.embed_query("alpha")
    assert server.httpd.requests[-1]["body"]["input"] == ["query: alpha"]
    assert query == pytest.approx(fake.embed_query("query: alpha"))


def test_input_type_names_the_role_and_leaves_the_prefix_to_the_server(
    server_factory: Any,
) -> None:
    server = start(server_factory)
    provider = OpenAICompatEmbedder(
        server.url, "intfloat/multilingual-e5-small", dims=16, input_type=True
    )
    provider.embed_documents(["alpha beta"])
    provider.embed_query("alpha")
    document, query = (r["body"] for r in server.httpd.requests)
    assert document["input_type"] == "document"
    assert document["input"] == ["alpha beta"]
    assert query["input_type"] == "query"
    assert query["input"] == ["alpha"]


def test_input_type_keeps_prefixes_given_explicitly(server_factory: Any) -> None:
    server = start(server_factory)
    provider = OpenAICompatEmbedder(
        server.url, "m", dims=16, input_type=True, query_prefix="q: ", document_prefix="d: "
    )
    provider.embed_documents(["alpha"])
    provider.embed_query("alpha")
    assert [r["body"]["input"] for r in server.httpd.requests] == [["d: alpha"], ["q: alpha"]]


def test_no_input_type_field_unless_asked(server_factory: Any) -> None:
    server = start(server_factory)
    provider = OpenAICompatEmbedder(server.url, "intfloat/multilingual-e5-small", dims=16)
    provider.embed_documents(["alpha"])
    provider.embed_query("alpha")
    assert all("input_type" not in r["body"] for r in server.httpd.requests)


def test_no_key_header_without_api_key_env(server_factory: Any) -> None:
    server = start(server_factory)
    provider = OpenAICompatEmbedder(server.url, "plain-model", query_prefix="", dims=16)
    provider.embed_query("hello")
    assert server.httpd.requests[0]["auth"] is None
    assert server.httpd.requests[0]["path"] == "/v1/embeddings"


def test_width_learnt_from_the_first_answer(server_factory: Any) -> None:
    server = start(server_factory, dims=12)
    provider = OpenAICompatEmbedder(server.url, "m")
    assert provider.dims == 12
    assert len(server.httpd.requests) == 1


def test_width_mismatch_raises(server_factory: Any) -> None:
    server = start(server_factory, dims=8)
    provider = OpenAICompatEmbedder(server.url, "m", dims=16)
    with pytest.raises(VectorWidthMismatch) as caught:
        provider.embed_documents(["x"])
    assert "embedding.dims" in caught.value.hint
    assert "embornal memory reindex --all" in caught.value.hint


def test_missing_api_key_variable(server_factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMBORNAL_NO_SUCH_KEY", raising=False)
    server = start(server_factory)
    provider = OpenAICompatEmbedder(server.url, "m", api_key_env="EMBORNAL_NO_SUCH_KEY", dims=16)
    with pytest.raises(EmbeddingError, match="EMBORNAL_NO_SUCH_KEY"):
        provider.embed_query("x")
    assert server.httpd.requests == []


def test_http_errors_are_embedding_errors(
    server_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMBORNAL_TEST_KEY", "sk-secret-value")
    server = start(server_factory, mode="unauthorized")
    provider = OpenAICompatEmbedder(server.url, "m", api_key_env="EMBORNAL_TEST_KEY", dims=16)
    with pytest.raises(EmbeddingError) as caught:
        provider.embed_query("x")
    assert "401" in caught.value.message
    assert "Incorrect API key" in caught.value.message
    assert "EMBORNAL_TEST_KEY" in caught.value.hint
    assert "sk-secret-value" not in caught.value.message + caught.value.hint

    broken = start(server_factory, mode="broken")
    with pytest.raises(EmbeddingError, match="500"):
        OpenAICompatEmbedder(broken.url, "m", dims=16).embed_documents(["x"])

    garbage = start(server_factory, mode="garbage")
    with pytest.raises(EmbeddingError, match="not an embeddings response"):
        OpenAICompatEmbedder(garbage.url, "m", dims=16).embed_documents(["x"])


def test_connection_refused_is_an_embedding_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    provider = OpenAICompatEmbedder(f"http://127.0.0.1:{port}/v1", "m", dims=16, timeout=5)
    with pytest.raises(EmbeddingError, match="cannot reach") as caught:
        provider.embed_documents(["x"])
    assert "base_url" in caught.value.hint


@pytest.mark.parametrize(
    ("base", "url"),
    [
        ("http://h:1", "http://h:1/v1/embeddings"),
        ("http://h:1/", "http://h:1/v1/embeddings"),
        ("http://h:1/v1", "http://h:1/v1/embeddings"),
        ("https://h/api/v2/", "https://h/api/v2/embeddings"),
        ("http://h/openai/v1/embeddings", "http://h/openai/v1/embeddings"),
        ("http://h/proxy", "http://h/proxy/v1/embeddings"),
    ],
)
def test_embeddings_url(base: str, url: str) -> None:
    assert embeddings_url(base) == url


def test_bad_base_url() -> None:
    with pytest.raises(EmbeddingError):
        OpenAICompatEmbedder("ftp://h", "m")
