"""Writing facts: store one or many, supersede (correct) one.

Each decision is the pure ``decide_…`` of :mod:`embornal.domain.facts.aggregate`; the
service checks access (it needs the rules), embeds the content once, and appends the
events and vectors in one unit of work.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from embornal.domain.events import FactStored
from embornal.domain.facts.aggregate import (
    FactState,
    StoreFact,
    SupersedeFact,
    decide_store,
    decide_supersede,
)
from embornal.domain.facts.attributes import read_attributes
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.ids import new_id
from embornal.domain.spine.confidence import prior
from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS
from embornal.errors import ConcurrencyError
from embornal.hints import TYPE_CHECKING, Any
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import run_command
from embornal.service.results import NewFact

if TYPE_CHECKING:
    from embornal.storage.contract.store import Tx

__all__ = ["new_fact", "store", "store_many", "supersede"]


#: The kinds whose store looks for conflicts (``resolution.DETECTED_KINDS``, named here so
#: that a store of any other kind imports nothing more; decision 0060).
_DETECTED_KINDS = frozenset({"person", "organization", "location", "asset", "preference"})
#: A store of more facts than this (a bulk load) does not look for near-duplicates by
#: meaning: one vector search a fact; a scan does not either (decision 0060).
_NEAR_BATCH = 100


def store(ctx: ServiceContext, item: NewFact, *, reason: str | None) -> Fact:
    return store_many(ctx, [item], reason=reason)[0]


def store_many(ctx: ServiceContext, items: Sequence[NewFact], *, reason: str | None) -> list[Fact]:
    """All the facts in one transaction, or none."""
    why = check_reason(reason, required=False)
    bodies: list[FactStored] = []
    for item in items:
        now = ctx.now()
        command = StoreFact(
            new_id(now),
            item.path,
            item.content,
            ctx.subject,
            item.tags,
            item.kind,
            item.at,
            item.attributes,
            item.confidence,
            item.visibility,
            item.source,
            item.evidence,
            item.lifetime,
        )
        bodies.extend(decide_store(command, now))
    if not bodies:
        return []
    if not ctx.access.unconditional("create"):  # one look at the rules for the batch
        for b in bodies:
            _require_write(ctx, b)
    vecs = ctx.semantic.embed_documents([b.content or "" for b in bodies])
    with ctx.store.transaction("storing facts") as tx:
        ctx.store.append(tx, [ctx.event(b.fact_id, b, why, 0) for b in bodies])
        if vecs is not None:
            ctx.semantic.write(tx, list(zip([b.fact_id for b in bodies], vecs, strict=True)))
        detected = [b.fact_id for b in bodies if b.kind in _DETECTED_KINDS and b.attributes]
        if detected:  # entity and preference facts: their conflicts, in this transaction
            from embornal.service.conflicts.detect import on_store

            on_store(ctx, tx, detected)
        if vecs is not None and len(bodies) <= _NEAR_BATCH:  # near-duplicates by meaning
            near = [
                (b.fact_id, b.kind, v.vector)
                for b, v in zip(bodies, vecs, strict=True)
                if b.kind not in _DETECTED_KINDS
            ]
            if near:
                from embornal.service.conflicts.detect import on_store_vectors

                on_store_vectors(ctx, tx, near)
    if any(b.lifetime is not None for b in bodies):  # its expiry is the projection's
        return ctx.store.get_facts([b.fact_id for b in bodies])
    start = prior(ctx.actor_kind)  # once for the batch
    return [new_fact(b, start) for b in bodies]


def _require_write(ctx: ServiceContext, new: FactStored) -> None:
    """The right to store ``new``: ``create`` where it goes (decision 0128)."""
    if ctx.access.unconditional("create"):
        return
    own = {t.key: t.value for t in new.tags}
    ctx.access.require("create", ctx.access.new_fact_object(new.path, own))


def supersede(
    ctx: ServiceContext,
    fact_id: str,
    content: str,
    *,
    tags: Sequence[str] | Mapping[str, str] | None = None,
    reason: str | None = None,
    at: datetime | str | None = None,
    kind: str | None = None,
    attributes: Mapping[str, object] | None = None,
) -> Fact:
    """Correct a fact: a new one on its path points at it (load → decide → append);
    ``kind`` None keeps the old one's kind (and, with ``attributes`` None, its attributes)."""
    old = ctx.resolve(fact_id)
    why = check_reason(reason, required=False)
    now = ctx.now()
    command = SupersedeFact(new_id(now), content, ctx.subject, tags, at, kind, attributes)
    embedded: list[Any] = []  # the first decision checks access and embeds, once

    def decide(state: FactState) -> FactStored:
        (new,) = decide_supersede(state, command, now)
        if not embedded:
            ctx.require_to_rewrite(old, f"superseding fact {old.id} removes it")
            _require_write(ctx, new)
            embedded.append(ctx.semantic.embed_documents([new.content or ""]))
        return new

    def write(tx: Tx, state: FactState, new: FactStored) -> None:
        # The successor's stream is new; the decision also read the old fact's state.
        if ctx.store.fact_state(state.fact_id) != state:
            raise ConcurrencyError(f"fact {state.fact_id} changed while superseding it")
        ctx.store.append(tx, [ctx.event(new.fact_id, new, why, 0)])
        if embedded[0] is not None:
            ctx.semantic.write(tx, [(new.fact_id, embedded[0][0])])

    run_command(ctx.store, old.id, decide, write, "superseding a fact")
    fact = ctx.store.get_fact(command.new_id)
    assert fact is not None
    return fact


def new_fact(b: FactStored, start: float) -> Fact:
    """The fact a FactStored event creates, as the projection holds it (no re-read);
    ``start``: the prior of the actor kind, for a fact stored without a confidence."""
    return Fact(
        id=b.fact_id,
        path=b.path,
        content=b.content or "",
        kind=b.kind,
        owner=b.owner,
        created_at=b.created_at,
        last_recall_at=None,
        recall_count=0,
        stability_days=INITIAL_STABILITY_DAYS,
        supersedes_id=b.supersedes_id,
        superseded_by=None,
        deleted_at=None,
        purged_at=None,
        tags=tuple(sorted(b.tags)),
        attributes=read_attributes(b.kind, b.kind_version, b.attributes),
        confidence=b.confidence if b.confidence is not None else start,
        visibility=b.visibility or "shared",
    )
