"""Keeping a memory sound: rebuild and verify the projections, embed what waits.

The projections are a function of the event log (rebuild replays it; verify compares
a replay with the live tables); vectors are derived too, and ``reindex`` makes the
missing ones (:class:`~embornal.service.semantic.Semantic`).
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.service.context import ServiceContext
from embornal.service.reindex_result import ReindexResult

__all__ = ["pending_embeddings", "rebuild", "reindex", "verify"]


def rebuild(ctx: ServiceContext, progress: Callable[[str, int, int], None] | None) -> int:
    return ctx.store.rebuild(progress)


def verify(ctx: ServiceContext) -> list[str]:
    return ctx.store.verify()


def reindex(
    ctx: ServiceContext,
    *,
    limit: int | None,
    everything: bool,
    progress: Callable[[int, int], None] | None,
) -> ReindexResult:
    return ctx.semantic.reindex(limit=limit, everything=everything, progress=progress)


def pending_embeddings(ctx: ServiceContext) -> int:
    return ctx.semantic.pending()
