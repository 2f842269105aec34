"""Merge: one real-world thing stored twice becomes one fact (docs/model.md, Links and
merges; decision 0054).

``merge(ctx, survivor_id, source_id, reason)`` — the survivor keeps its id and absorbs the
source's aliases (union, the source's name among them) and evidence; the source is
forgotten (archived: restorable, its stream kept as history) and the survivor gets a
``supersedes`` link to it. Links to the source resolve to the survivor in a traversal.
Both streams are written in one transaction at the versions decided on, so a merge lands
whole or not at all (again on a concurrent write, as every command).

Who may: the survivor's attributes change (write and delete on it, as an update) and the
source leaves recall (delete on it); both must be readable ("no fact" otherwise).
"""

from __future__ import annotations

from embornal.domain.events import NewEvent
from embornal.domain.facts.aggregate import FactState, evolve
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.graph.rules import MergeFacts, decide_merge
from embornal.errors import ConcurrencyError, NotFound
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import MAX_ATTEMPTS

__all__ = ["merge", "merge_events"]


def merge_events(
    ctx: ServiceContext, kept: FactState, gone: FactState, why: str | None
) -> tuple[list[NewEvent], FactState]:
    """The events of merging ``gone`` into ``kept`` (decided over the two states, each at
    its stream's version) and the survivor's state after them, so that another merge
    into it can follow in the same transaction (a conflict of three)."""
    decided = decide_merge(kept, gone, MergeFacts(kept.fact_id, gone.fact_id), ctx.now())
    events: list[NewEvent] = []
    state = kept
    for body in decided.survivor:
        events.append(ctx.event(kept.fact_id, body, why, state.version))
        state = evolve(state, body)
    events += [
        ctx.event(gone.fact_id, body, why, gone.version + i)
        for i, body in enumerate(decided.source)
    ]
    return events, state


def merge(ctx: ServiceContext, survivor_id: str, source_id: str, reason: str) -> Fact:
    """Merge ``source_id`` into ``survivor_id`` (a reason is required); return the survivor."""
    why = check_reason(reason)
    survivor = ctx.resolve(survivor_id)
    source = ctx.resolve(source_id)
    if survivor.id != source.id:
        ctx.require_to_rewrite(survivor, "a merge changes the survivor's attributes")
        ctx.access.require("delete", ctx.access.fact_object(source), why="a merge archives it")
    for _ in range(MAX_ATTEMPTS):
        kept, gone = ctx.store.fact_state(survivor.id), ctx.store.fact_state(source.id)
        if kept is None or gone is None:  # pragma: no cover - both resolved just now
            raise NotFound(f"no fact with id {survivor_id if kept is None else source_id}")
        events, _ = merge_events(ctx, kept, gone, why)
        try:
            ctx.append("merging facts", events)
        except ConcurrencyError:
            continue
        return ctx.reload(survivor.id)
    raise ConcurrencyError(
        f"facts {survivor.id} and {source.id} changed {MAX_ATTEMPTS} times while merging; "
        "nothing was written",
        hint="Other writers are busy with these facts; read them again and retry.",
    )
