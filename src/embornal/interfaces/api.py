"""``MemoryAPI`` and ``ChronicleAPI``: the public surface both :class:`embornal.Memory`
(with its ``chronicle``) and the remote client
(:class:`embornal.interfaces.cli.remote.RemoteMemory`) offer (decision 0176).

The surface is written once, in ``Memory`` and
:class:`~embornal.service.history.chronicle.Chronicle`: each of their ``use_case(...)``
methods takes its signature from its use case (decision 0175), and type checkers read it
there. These names are those classes; the remote client is declared as providing them and
derives each method, on first use, from the catalogue operation that calls it with the
signature read from ``Memory``'s (or ``Chronicle``'s) attribute (:mod:`.cli.remote_derive`).
A method with no routed operation raises :class:`~embornal.errors.InvalidInput`
(``local_only``) on the remote client.

Code written against them (the CLI's memory commands, the behaviour suite in
``tests/behaviour/``) runs the same on a local memory and over the REST API.

``MemorySettings``: what the configuration gives ``Memory.open``, made by the CLI for
itself and for the servers it runs (``run_server``, ``run_stdio``), which open with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from embornal.service.history.chronicle import Chronicle as ChronicleAPI
from embornal.service.memory import Memory as MemoryAPI

if TYPE_CHECKING:
    from embornal.adapters.config import IngestConfig
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.domain.proposals.policy import ProposalPolicy
    from embornal.domain.recall.ranking import FusionSettings
    from embornal.service.rerank import RerankSource

__all__ = ["ChronicleAPI", "MemoryAPI", "MemorySettings"]


class MemorySettings(TypedDict, total=False):
    """The arguments of ``Memory.open`` that the configuration gives (none: its default)."""

    embedder: EmbeddingProvider | None
    """The embedding model (recall by meaning)."""
    vector_width: int | None
    """Its width, which must match on every later open."""
    proposals: ProposalPolicy | None
    ingest: IngestConfig | None
    reranker: RerankSource
    """A reranker, or a function that builds one on first use."""
    fusion: FusionSettings | None
