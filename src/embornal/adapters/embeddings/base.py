"""The interface every embedding back-end implements, plus two test doubles.

A provider turns text into L2-normalised vectors of a fixed width. Documents
(the facts stored) and queries (what recall searches with) go through separate
methods because several models were trained with a different prefix for each
(e5: ``"query: "`` / ``"passage: "``).

``identity`` names the model and its width, ``"model-name:dims"``; the storage
layer keeps it next to each vector, so a change of model is noticed.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

from embornal.errors import EmbeddingError, VectorWidthMismatch

__all__ = [
    "EmbeddingProvider",
    "FailingEmbedder",
    "FakeEmbedder",
    "LocalModelEmbedder",
    "known_prefixes",
    "l2_normalize",
    "resolve_prefixes",
    "width_mismatch",
]


@runtime_checkable
class EmbeddingProvider(Protocol):
    """Turns text into unit-length vectors of ``dims`` floats."""

    @property
    def identity(self) -> str:
        """``"model-name:dims"``, stable for a given model and width."""
        ...

    @property
    def dims(self) -> int:
        """The width of every vector this provider returns."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order, for texts that will be stored."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        ...


def l2_normalize(vector: Sequence[float]) -> list[float]:
    """``vector`` scaled to length 1; a zero vector is returned as zeros."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    if norm == 0.0:
        return [0.0 for _ in vector]
    return [x / norm for x in vector]


# Prefixes that a model family was trained with: (query prefix, document prefix).
# Matched in order against the lower-cased model name; the first hit wins.
_KNOWN_PREFIXES: tuple[tuple[str, tuple[str, str]], ...] = (
    ("e5-", ("query: ", "passage: ")),
    ("embeddinggemma", ("task: search result | query: ", "title: none | text: ")),
    ("nomic-embed-text", ("search_query: ", "search_document: ")),
)


def resolve_prefixes(
    model_name: str | None, query_prefix: str | None, document_prefix: str | None
) -> tuple[str, str]:
    """The prefixes to use: the ones given, else the ones the model family expects."""
    default_query, default_document = known_prefixes(model_name)
    return (
        default_query if query_prefix is None else query_prefix,
        default_document if document_prefix is None else document_prefix,
    )


def known_prefixes(model_name: str | None) -> tuple[str, str]:
    """The ``(query_prefix, document_prefix)`` a model expects, ``("", "")`` if none.

    Instruction-tuned e5 variants (``*-instruct``) take a task instruction rather
    than a fixed prefix, so they get none here: configure ``embedding.query_prefix``.
    """
    if not model_name:
        return ("", "")
    name = model_name.lower()
    if "instruct" in name:
        return ("", "")
    for needle, prefixes in _KNOWN_PREFIXES:
        if needle in name:
            return prefixes
    return ("", "")


def width_mismatch(identity: str, actual: int, expected: int) -> VectorWidthMismatch:
    """The error for a model whose vectors are not ``embedding.dims`` wide."""
    return VectorWidthMismatch(
        f"the embedding model {identity} makes {actual}-d vectors but embedding.dims is {expected}",
        hint=(
            f"Set embedding.dims: {actual} in config.yaml and run "
            f"`embornal memory reindex --all`, or choose a model with {expected}-d vectors."
        ),
    )


_TOKEN = re.compile(r"\w+")


class _NamedWidth:
    """The identity (``name:dims``) and the width of a provider whose width is fixed."""

    _name: str
    _dims: int

    @property
    def identity(self) -> str:
        return f"{self._name}:{self._dims}"

    @property
    def dims(self) -> int:
        return self._dims


class FakeEmbedder(_NamedWidth):
    """A deterministic, dependency-free provider for tests.

    Each word (lower-cased ``\\w+`` run) is hashed to one coordinate and a sign
    (feature hashing), so texts sharing words have a positive cosine and texts
    sharing none are near-orthogonal. The same text always gives the same
    vector, in every process.
    """

    def __init__(self, dims: int = 768, *, name: str = "fake") -> None:
        if dims < 1:
            raise ValueError("dims must be positive")
        self._dims = dims
        self._name = name

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)

    def _embed(self, text: str) -> list[float]:
        # The few coordinates the words reach, then ``l2_normalize`` over them alone: the
        # same floats (``fsum`` is exact whatever it adds, and the zeros add nothing).
        counts: dict[int, float] = {}
        tokens = _TOKEN.findall(text.casefold()) or [text.strip()]
        for token in tokens:
            index, sign = _hashed(token, self._dims)
            counts[index] = counts.get(index, 0.0) + sign
        if not any(counts.values()):
            # Words that cancelled out: fall back to a fixed coordinate of the text.
            digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
            counts = {int.from_bytes(digest, "big") % self._dims: 1.0}
        norm = math.sqrt(math.fsum(x * x for x in counts.values()))
        vector = [0.0] * self._dims
        for index, value in counts.items():
            vector[index] = value / norm
        return vector


@lru_cache(maxsize=65_536)
def _hashed(token: str, dims: int) -> tuple[int, float]:
    """The coordinate and sign :class:`FakeEmbedder` gives a word."""
    value = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "big")
    return (value >> 1) % dims, 1.0 if value & 1 else -1.0


class FailingEmbedder(_NamedWidth):
    """A provider that always fails, for tests of the pending-embedding queue."""

    _name = "failing"

    def __init__(
        self, dims: int = 768, *, message: str = "the embedding model is unavailable"
    ) -> None:
        self._dims = dims
        self._message = message
        self.calls = 0

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        raise EmbeddingError(self._message, hint="This provider always fails (tests only).")

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        raise EmbeddingError(self._message, hint="This provider always fails (tests only).")


class LocalModelEmbedder(_NamedWidth):
    """What every in-process model provider shares: its name and width, the query and
    document prefixes, and one ``_embed`` that subclasses implement."""

    query_prefix: str
    document_prefix: str

    def _set_prefixes(self, query_prefix: str | None, document_prefix: str | None) -> None:
        self.query_prefix, self.document_prefix = resolve_prefixes(
            self._name, query_prefix, document_prefix
        )

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed([self.document_prefix + t for t in texts])

    def embed_query(self, text: str) -> list[float]:
        return self._embed([self.query_prefix + text])[0]

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise NotImplementedError
