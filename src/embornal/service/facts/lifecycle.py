"""The fact's life cycle (forget, restore, purge), each a command run by
:func:`~embornal.service.command.run_command` (load, decide, append; decision 0026)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from embornal.domain.events import DomainEvent, Event
from embornal.domain.facts.aggregate import (
    FactState,
    ForgetFact,
    PurgeFact,
    RestoreFact,
    decide_forget,
    decide_purge,
    decide_restore,
)
from embornal.domain.facts.fact import Fact, check_reason
from embornal.hints import TYPE_CHECKING, TypeVar
from embornal.service.command import MAX_ATTEMPTS, run_command
from embornal.service.context import ServiceContext
from embornal.service.results import PurgeResult

if TYPE_CHECKING:
    from embornal.storage.contract.store import Tx

__all__ = ["MAX_ATTEMPTS", "decided", "forget", "on_fact", "purge", "restore", "run_command"]

C = TypeVar("C")
R = TypeVar("R")


def on_fact(
    ctx: ServiceContext,
    fact_id: str,
    decide: Callable[[FactState], list[DomainEvent]],
    why: str | None,
    doing: str,
    then: Callable[[Tx, list[Event]], R] | None = None,
) -> R | None:
    """Load the fact's state, decide, append at the loaded version (retried); ``then``
    runs in the same transaction on the appended events."""

    def write(tx: Tx, state: FactState, bodies: list[DomainEvent]) -> R | None:
        events = ctx.store.append(
            tx, [ctx.event(fact_id, b, why, state.version + i) for i, b in enumerate(bodies)]
        )
        return then(tx, events) if then else None

    return run_command(ctx.store, fact_id, decide, write, doing)


def decided(
    ctx: ServiceContext,
    fact_id: str,
    command: C,
    decide: Callable[[FactState, C, datetime], Sequence[DomainEvent]],
    why: str | None,
    doing: str,
) -> Fact:
    """The fact ``fact_id`` read again once ``decide(state, command, now)`` is appended
    (:func:`on_fact`)."""
    now = ctx.now()
    on_fact(ctx, fact_id, lambda s: list(decide(s, command, now)), why, doing)
    return ctx.reload(fact_id)


def forget(ctx: ServiceContext, fact_id: str, *, reason: str) -> Fact:
    why = check_reason(reason)
    fact = ctx.target("forget", fact_id)
    now = ctx.now()
    command = ForgetFact(fact.id)

    def write(tx: Tx, state: FactState, bodies: list[DomainEvent]) -> None:
        from embornal.service.history.audited import invalidations

        ctx.store.append(
            tx, [ctx.event(fact.id, b, why, state.version + i) for i, b in enumerate(bodies)]
        )
        invalidations(ctx, tx, state, bodies, why)  # the narratives resting on it (0142)

    run_command(
        ctx.store, fact.id, lambda s: decide_forget(s, command, now), write, "forgetting a fact"
    )
    return ctx.reload(fact.id)


def restore(ctx: ServiceContext, fact_id: str, *, reason: str) -> Fact:
    why = check_reason(reason)
    fact = ctx.target("restore", fact_id)
    return decided(ctx, fact.id, RestoreFact(fact.id), decide_restore, why, "restoring a fact")


#: The reason of the resolution a purge appends to each open conflict of the fact.
PURGED_MEMBER = "a member was purged"


def _close_conflicts(ctx: ServiceContext, tx: Tx, fact_id: str) -> None:
    """Inside a purge: close every open conflict ``fact_id`` is a member of (outcome
    ``purged``), at the version the projection holds (a racing resolution retries the
    purge)."""
    from embornal.domain.conflicts.aggregate import decide_close_purged, stream_of

    closing = [
        ctx.event(stream_of(s.conflict_id), body, PURGED_MEMBER, s.version)
        for s in ctx.store.conflicts.conflict_states(fact_id=fact_id, status="open")
        for body in decide_close_purged(s, fact_id)
    ]
    if closing:
        ctx.store.append(tx, closing)


def purge(ctx: ServiceContext, fact_id: str, *, reason: str) -> PurgeResult:
    """Erase in the purge's own transaction: the stream's text, then the projections'."""
    why = check_reason(reason)
    fact = ctx.target("purge", fact_id)
    now = ctx.now()
    command = PurgeFact(fact.id)

    def erase(tx: Tx, events: list[Event]) -> int:
        redacted = ctx.store.redact_stream(tx, fact.id, events[-1].position)
        _close_conflicts(ctx, tx, fact.id)
        ctx.store.erase_in_transaction(tx)
        return redacted

    redacted = on_fact(
        ctx, fact.id, lambda s: decide_purge(s, command, now), why, "purging a fact", erase
    )
    assert redacted is not None
    compacted = ctx.store.compact_after_purge()
    return PurgeResult(fact.id, redacted, compacted)
