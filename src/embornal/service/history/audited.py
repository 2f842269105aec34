"""What the history protocol records beside a decision (decision 0142): a refusal of the
corroboration gate (``pin_denied``, ``canonize_denied``, ``narrate_denied`` in the audit),
and the loss of a narrative's usability (``narrative_invalidated``).

A refused call writes nothing of what it asked; :func:`record_refusal` appends, in its own
transaction, the :class:`~embornal.domain.events.protocol.MemoryRefused` that says who
tried, when and why it was refused. :func:`invalidations` appends, in the transaction of
the change that causes it, a :class:`~embornal.domain.events.narratives.NarrativeInvalidated`
to each account whose current version rests on the changed memory and loses its
usability by it (once per approval). Whether a version is usable is still computed when
it is read (decision 0086): these events are the record, not the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from embornal.domain.events import DomainEvent
from embornal.domain.events.narratives import NarrativeInvalidated
from embornal.domain.facts.aggregate import FactState, evolve
from embornal.domain.history.protocol import decide_refused
from embornal.domain.narratives.accounts import fold_account, state_issues
from embornal.service.command import run_command

if TYPE_CHECKING:
    from embornal.service.context import ServiceContext
    from embornal.storage.contract.store import Tx

__all__ = ["invalidations", "record_refusal"]


def record_refusal(
    ctx: ServiceContext,
    fact_id: str,
    operation: str,
    reason: str | None,
    *,
    require_gate: bool = False,
) -> None:
    """Append the refusal of ``operation`` on ``fact_id`` when the corroboration gate is
    what refuses it now (:func:`~embornal.domain.history.protocol.decide_refused`); else nothing."""

    def write(tx: Tx, state: FactState, bodies: list[DomainEvent]) -> None:
        if bodies:
            ctx.store.append(
                tx, [ctx.event(fact_id, b, reason, state.version + i) for i, b in enumerate(bodies)]
            )

    run_command(
        ctx.store,
        fact_id,
        lambda s: decide_refused(s, operation, require_gate=require_gate),
        write,
        f"recording a refused {operation}",
    )


def invalidations(
    ctx: ServiceContext,
    tx: Tx,
    state: FactState,
    bodies: Sequence[DomainEvent],
    reason: str | None,
) -> None:
    """In ``tx``, after ``bodies`` were appended to the stream of ``state``'s fact: a
    ``NarrativeInvalidated`` for each current narrative version resting on the fact that
    has a source issue by it and whose loss is not recorded since its approval."""
    after = state
    for body in bodies:
        after = evolve(after, body)
    for row in ctx.store.narratives.narratives_on(state.fact_id):
        account = fold_account(ctx.store.read_stream(row.stream_id))
        if account is None or account.current.narrative_id != row.narrative_id:
            continue
        version = account.current
        if version.invalidated:
            continue
        codes = state_issues(after, require_gate=version.sensitive)
        if not codes:
            continue
        body = NarrativeInvalidated(version.narrative_id, state.fact_id, codes[0])
        ctx.store.append(tx, [ctx.event(account.stream_id, body, reason, account.version)])
