"""A proposal's items applied: the facts they name loaded, their events decided in item
order, the rights each takes checked (decisions 0055, 0071).

Every fact an item names (:func:`~embornal.domain.proposals.aggregate.facts_of`: one for an update,
two for a link or a merge) is loaded and must be readable by the subject ("no fact"
otherwise, as a missing one) — unless an item of the same proposal creates it (``#N`` or
its ``new_id``), which then must be approved with it. Each item is decided on the states
the items before it left (a create, then a link from the new fact, then another), so
every event carries the expected version of its stream, one more per event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from embornal.domain.events import FactStored, NewEvent
from embornal.domain.facts.aggregate import FactState, evolve
from embornal.domain.facts.fact import MAX_REASON_LENGTH, Fact
from embornal.domain.facts.tags import OWNER_KEY
from embornal.domain.proposals.aggregate import (
    Applied,
    ProposalState,
    apply_item,
    facts_of,
    new_fact_of,
    roles_of,
)
from embornal.domain.values import value
from embornal.errors import AccessDenied, EmbornalError, InvalidInput, NotFound
from embornal.service.context import ServiceContext

__all__ = ["Loaded", "Planned", "load", "plan"]


@value
class Loaded:
    """The stored facts the chosen items name, as read, with their states."""

    facts: Mapping[str, Fact] = field(default_factory=dict)
    states: Mapping[str, FactState] = field(default_factory=dict)

    def kinds(self) -> list[str]:
        return [s.kind for s in self.states.values()]


@value
class Planned:
    """The events of an approval (each at its stream's next version), the facts they
    store, and the loaded facts no event writes (read only: checked again at commit)."""

    events: list[NewEvent]
    stored: list[FactStored]
    read_only: list[str]


def _made(state: ProposalState) -> dict[str, str]:
    """The id of each fact an item of the proposal creates → that item's number."""
    return {m: n for n, item in state.items.items() if (m := new_fact_of(item)) is not None}


def load(ctx: ServiceContext, state: ProposalState, chosen: Sequence[str]) -> Loaded:
    """The facts the ``chosen`` items name, each readable by the subject, or the error
    naming the item (the same for an absent and a hidden fact)."""
    made = _made(state)
    ids = [t for n in chosen for t in facts_of(state.items[n]) if t not in made]
    facts = {f.id: f for f in ctx.store.get_facts(list(dict.fromkeys(ids)), ctx.scope())}
    states: dict[str, FactState] = {}
    for n in chosen:
        for t in facts_of(state.items[n]):
            if t in made:
                if made[t] not in chosen:
                    raise InvalidInput(
                        f"item {n} names the fact item {made[t]} creates; approve item "
                        f"{made[t]} too",
                        hint=f"Add `--item {made[t]}`, or approve every item.",
                    )
                continue
            fact_state = states.get(t) or (ctx.store.fact_state(t) if t in facts else None)
            if fact_state is None:
                raise NotFound(f"item {n}: no fact with id {t}")
            states[t] = fact_state
    return Loaded(facts, states)


def _require(
    ctx: ServiceContext, n: str, item: Mapping[str, Any], loaded: Loaded, applied: Applied
) -> None:
    """The rights the item takes on each fact it names (a fact this proposal creates is
    covered by its create's right), and write where it stores a new fact."""
    try:
        for role, t in zip(roles_of(item), facts_of(item), strict=True):
            fact = loaded.facts.get(t)
            if fact is None:
                continue
            obj = ctx.access.fact_object(fact)
            if "rewrite" in role.actions:
                ctx.require_to_rewrite(fact, f"item {n} changes fact {fact.id}")
            if "write" in role.actions:
                ctx.access.require("write", obj)
            if "delete" in role.actions:
                ctx.access.require("delete", obj)
        for _, body in applied.events:
            if isinstance(body, FactStored) and not ctx.access.unconditional("create"):
                own = {t.key: t.value for t in body.tags if t.key != OWNER_KEY}
                ctx.access.require("create", ctx.access.new_fact_object(body.path, own))
    except AccessDenied as e:
        raise AccessDenied(f"item {n}: {e.message}", hint=e.hint) from None


def plan(
    ctx: ServiceContext,
    state: ProposalState,
    chosen: Sequence[str],
    loaded: Loaded,
    why: str | None,
    *,
    check_access: bool = True,
) -> Planned:
    """The fact events of the chosen items in order, with the access each takes checked
    (unless not ``check_access``: a proposal is checked for what it says, the approver
    for its rights); an item that no longer applies names its number."""
    now = ctx.now()
    working: dict[str, FactState] = dict(loaded.states)
    events: list[NewEvent] = []
    stored: list[FactStored] = []
    for n in chosen:
        item = state.items[n]
        named = facts_of(item)
        missing = [t for t in named if t not in working]
        if missing:  # created by a later item
            raise InvalidInput(
                f"item {n} names fact {missing[0]} before the item that creates it",
                hint="Put the create item first.",
            )
        try:
            applied = apply_item(item, [working[t] for t in named], ctx.subject, now)
        except EmbornalError as e:
            raise type(e)(f"item {n}: {e.message}", hint=e.hint) from None
        if check_access:
            _require(ctx, n, item, loaded, applied)
        note = f"proposal {state.proposal_id} item {n}"
        extra = item.get("reason") or why
        reason = (f"{note}: {extra}" if extra else note)[:MAX_REASON_LENGTH]
        for stream, body in applied.events:
            before = working.get(stream)
            events.append(ctx.event(stream, body, reason, before.version if before else 0))
            working[stream] = evolve(before, body)
            if isinstance(body, FactStored):
                stored.append(body)
    written = {e.stream_id for e in events}
    return Planned(events, stored, [t for t in loaded.states if t not in written])
