"""Vectors in the service: embedding at store time, the pending queue, reindex.

A fact is always stored, with or without a vector: when there is no model, or
the model fails, it waits in the pending queue until ``reindex`` gives it one.
A fact longer than the model reads is embedded in pieces: its one vector pools
them, and each piece's vector is kept for scoring (``embornal.domain.recall.chunks``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from embornal.domain.bounds import MAX_REINDEX_LIMIT, whole_in_range
from embornal.domain.recall.chunks import CHUNK_CHARS, chunk_text, mean_vector
from embornal.domain.records import record
from embornal.errors import (
    ConfigError,
    EmbeddingError,
    EmbornalError,
    InvalidInput,
    VectorWidthMismatch,
)
from embornal.hints import TYPE_CHECKING
from embornal.storage.contract.rows import FactVector, pack_vector

if TYPE_CHECKING:  # the module imports hashlib (OpenSSL): not at every start-up
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.service.reindex_result import ReindexResult
    from embornal.storage.contract.store import Store, Tx

__all__ = ["Embedded", "Semantic"]

Progress = Callable[[int, int], None]
REINDEX_BATCH = 64


@record
class Embedded:
    """One fact's vector (float32 bytes) and, for a long fact, its pieces' vectors."""

    vector: bytes
    pieces: tuple[bytes, ...] = ()


class Semantic:
    """The embedding provider of a memory, and the rules that guard its vectors."""

    def __init__(self, store: Store, provider: EmbeddingProvider | None) -> None:
        self._store = store
        self.provider = provider
        # A memory whose vectors have another width than the model's still opens: recall
        # by meaning stops with this error until ``reindex --all`` (decision 0120).
        self._mismatch: VectorWidthMismatch | None = None

    def setup(self, width: int | None) -> None:
        """Check (or record) the vector width and create the vector index."""
        if width is None and self.provider is None:
            return
        dims = width if width is not None else self.provider.dims  # type: ignore[union-attr]
        if self.provider is not None and self.provider.dims != dims:
            raise ConfigError(
                f"the embedding model gives {self.provider.dims}-d vectors but the memory is "
                f"configured for {dims}",
                hint="Set embedding.dims to the model's width in config.yaml.",
            )
        try:
            self._store.prepare_vectors(dims)
        except VectorWidthMismatch as e:
            self._mismatch = e

    def stored_model(self) -> str | None:
        return self._store.vector_model()

    def usable(self) -> bool:
        """A provider is set, sqlite-vec is loaded, and the stored vectors are its own."""
        if self.provider is None or self._mismatch is not None:
            return False
        if not self._store.has_vector_index():
            return False
        stored = self.stored_model()
        return stored is None or stored == self.provider.identity

    def require_usable(self) -> EmbeddingProvider:
        if self.provider is None:
            raise InvalidInput(
                "recall by meaning needs an embedding model",
                hint=(
                    "Install `pip install 'embornal[semantic]'`, then `embornal model pull`, "
                    "or use --mode keyword."
                ),
            )
        if self._mismatch is not None:
            raise self._mismatch
        if not self._store.has_vector_index():
            raise ConfigError(
                "the vector index is not available (sqlite-vec is not installed)",
                hint="Install `pip install 'embornal[semantic]'`.",
            )
        stored = self.stored_model()
        if stored is not None and stored != self.provider.identity:
            raise ConfigError(
                f"the stored vectors come from {stored}, but the model is now "
                f"{self.provider.identity}",
                hint="Run `embornal memory reindex --all` to embed every fact with the new model.",
            )
        return self.provider

    def embed_documents(self, texts: Sequence[str]) -> list[Embedded] | None:
        """Vectors for new facts, or None (the facts then wait in the pending queue)."""
        if not texts or not self.usable():
            return None
        assert self.provider is not None
        try:
            return self._embed(self.provider, texts)
        except (EmbornalError, OSError, RuntimeError, ValueError):
            return None

    def _embed(self, provider: EmbeddingProvider, texts: Sequence[str]) -> list[Embedded]:
        """One vector a text; a long text's is pooled from its pieces' vectors, kept too."""
        pieces = [chunk_text(text, CHUNK_CHARS) for text in texts]
        flat = provider.embed_documents([piece for group in pieces for piece in group])
        if len(flat) != sum(len(group) for group in pieces):
            raise EmbeddingError("the model returned a different number of vectors")
        out: list[Embedded] = []
        start = 0
        for text, group in zip(texts, pieces, strict=True):
            part = [list(v) for v in flat[start : start + len(group)]]
            start += len(group)
            if len(part) == 1:
                # A long text is kept as its piece too (even if blank lines left one), so
                # that it never waits for pieces (vectors.pending_facts).
                long = len(text) > CHUNK_CHARS
                blob = pack_vector(part[0])
                out.append(Embedded(blob, (blob,) if long else ()))
                continue
            # A long fact: its index vector joins its opening (what it is about) and the
            # mean of all its pieces (everything it says), equally weighted (decision 0011).
            pooled = mean_vector([part[0], mean_vector(part)])
            out.append(Embedded(pack_vector(pooled), tuple(pack_vector(v) for v in part)))
        return out

    def write(self, tx: Tx, items: Sequence[tuple[str, Embedded]]) -> None:
        """Write the vectors of facts in the unit of work ``tx`` (theirs commit together)."""
        assert self.provider is not None
        self._store.write_vectors(
            tx,
            [FactVector(fact_id, e.vector, e.pieces) for fact_id, e in items],
            model=self.provider.identity,
        )

    def pending(self) -> int:
        """Live facts that wait for a vector, or (long facts embedded before pieces were
        kept) for their pieces' vectors: what a plain ``reindex`` embeds."""
        return self._store.pending_vector_count()

    def reindex(
        self,
        *,
        limit: int | None = None,
        everything: bool = False,
        progress: Progress | None = None,
    ) -> ReindexResult:
        """Give a vector to each fact that waits for one (``everything``: to every fact)."""
        provider = self.provider
        if provider is None:
            raise InvalidInput(
                "there is no embedding model to reindex with",
                hint="Configure one (embedding.provider) or run `embornal model pull`.",
            )
        if limit is not None and not whole_in_range(limit, 1, MAX_REINDEX_LIMIT):
            raise InvalidInput(f"--limit must be a whole number from 1 to {MAX_REINDEX_LIMIT:,}")
        if everything:
            width = provider.dims if self._mismatch is not None else None
            with self._store.transaction("clearing vectors") as tx:
                self._store.clear_vectors(tx, model=provider.identity, width=width)
            self._mismatch = None
        else:
            self.require_usable()
        total = self.pending() if limit is None else min(limit, self.pending())
        done = 0
        while done < total:
            rows = self._store.pending_vectors(min(REINDEX_BATCH, total - done))
            if not rows:
                break
            vecs = self._embed(provider, [content for _, content in rows])
            with self._store.transaction("writing vectors") as tx:
                self.write(tx, [(fact_id, e) for (fact_id, _), e in zip(rows, vecs, strict=True)])
            done += len(rows)
            if progress is not None:
                progress(done, total)
        from embornal.service.reindex_result import ReindexResult  # reindex only

        return ReindexResult(done, self.pending(), provider.identity)
