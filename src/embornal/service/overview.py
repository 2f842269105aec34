"""What ``embornal status`` says about a memory: its facts counted by state, kind and
protocol stage, its events, and the facts that wait for a vector; and the keyword probe
of ``embornal doctor`` (decision 0146).

The counts are of the facts the subject may read (the one read filter); the log's length
and the vectors waiting are the memory's own. Reads only: neither records a recall.
"""

from __future__ import annotations

from dataclasses import field

from embornal.domain.recall.text import query_terms
from embornal.domain.values import value
from embornal.service.context import ServiceContext

__all__ = ["Overview", "keyword_probe", "overview"]


@value
class Overview:
    """The facts in scope by ``state`` (active, expired, superseded, forgotten, purged), the
    live ones by ``kind`` and by protocol ``stage`` (working, consolidated; ``none``: not
    in the protocol), the log's ``events`` and the facts ``pending`` a vector."""

    facts: int
    by_state: dict[str, int] = field(default_factory=dict)
    by_kind: dict[str, int] = field(default_factory=dict)
    by_stage: dict[str, int] = field(default_factory=dict)
    events: int = 0
    pending_embeddings: int = 0


def _add(counts: dict[str, int], key: str, n: int) -> None:
    counts[key] = counts.get(key, 0) + n


def overview(ctx: ServiceContext) -> Overview:
    by_state: dict[str, int] = {}
    by_kind: dict[str, int] = {}
    by_stage: dict[str, int] = {}
    for state, kind, stage, n in ctx.store.protocol.fact_counts(ctx.scope()):
        _add(by_state, state, n)
        if state == "active":
            _add(by_kind, kind, n)
            _add(by_stage, stage or "none", n)
    return Overview(
        facts=sum(by_state.values()),
        by_state=by_state,
        by_kind=dict(sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))),
        by_stage=by_stage,
        events=ctx.store.portability.event_count(),
        pending_embeddings=ctx.semantic.pending(),
    )


def keyword_probe(ctx: ServiceContext) -> tuple[str, bool] | None:
    """A word of the first live fact in scope, and whether the keyword index finds that
    fact by it (None: no live fact to look for)."""
    scope = ctx.scope()
    for fact in ctx.store.portability.every_fact(scope):
        terms = query_terms(fact.content) if fact.state == "active" else []
        if terms:
            hits = ctx.store.keyword_search(terms[:3], 50, scope)
            return terms[0], any(found.id == fact.id for found, _ in hits)
    return None
