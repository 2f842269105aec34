"""The justification spine: confirm, contradict, add evidence (docs/model.md, The spine).

Each is a command on the fact's aggregate, run by :func:`~embornal.service.facts.lifecycle.on_fact`
(load → decide → append at the loaded version, again on a concurrent write): two writers
confirming and contradicting one fact both land, and its confidence is the maths applied
in log order.

Who may: vouching for a fact, disputing it or adding evidence changes how far it is
trusted, not what it says, so it takes ``write`` on the fact (not ``delete``, which a
supersede or an attribute update also need). The fact must be readable to be named; a
contradicting fact (``by``) too.
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.spine.decisions import (
    AddEvidence,
    ConfirmFact,
    ContradictFact,
    decide_add_evidence,
    decide_confirm,
    decide_contradict,
)
from embornal.domain.spine.justification import EvidenceRef, parse_evidence
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import decided, on_fact
from embornal.storage.contract.store import Tx

__all__ = ["add_evidence", "confirm", "contradict"]


def _evidence(evidence: EvidenceRef | str | None) -> EvidenceRef | None:
    return None if evidence is None else parse_evidence(evidence)


def confirm(
    ctx: ServiceContext,
    fact_id: str,
    *,
    evidence: EvidenceRef | str | None = None,
    reason: str | None = None,
) -> Fact:
    """Vouch for an active fact: its confidence moves toward 1 by the weight of the actor
    kind, ``last_confirmed_at`` is now, the evidence (if any) joins the fact's."""
    why = check_reason(reason, required=False)
    ev = _evidence(evidence)
    fact = ctx.target("confirm", fact_id)
    return decided(ctx, fact.id, ConfirmFact(fact.id, ev), decide_confirm, why, "confirming a fact")


def contradict(
    ctx: ServiceContext,
    fact_id: str,
    *,
    by: str | None = None,
    evidence: EvidenceRef | str | None = None,
    reason: str,
) -> Fact:
    """Dispute an active fact (a reason is required): its confidence decays by the weight
    of the actor kind. ``by`` names the fact that contradicts it (another, readable one)."""
    why = check_reason(reason)
    ev = _evidence(evidence)
    fact = ctx.target("contradict", fact_id)
    by_id = None if by is None else ctx.target("contradict", by, "by").id
    by_state = None if by_id is None else ctx.store.fact_state(by_id)
    now = ctx.now()
    command = ContradictFact(fact.id, by_id, ev)
    on_fact(
        ctx,
        fact.id,
        lambda s: decide_contradict(s, command, now, by_state),
        why,
        "contradicting a fact",
        _open_conflicts(ctx),
    )
    return ctx.reload(fact.id)


def _open_conflicts(ctx: ServiceContext) -> Callable[[Tx, list[Event]], list[Event]]:
    """In the contradiction's transaction: the conflict it makes (decision 0060)."""

    def then(tx: Tx, events: list[Event]) -> list[Event]:
        from embornal.service.conflicts.detect import on_contradict

        return on_contradict(ctx, tx, events)

    return then


def add_evidence(
    ctx: ServiceContext,
    fact_id: str,
    evidence: EvidenceRef | str,
    *,
    note: str | None = None,
) -> Fact:
    """Append one piece of evidence to an active fact (never edited or removed): a weak
    confirm, which also dates ``last_confirmed_at``."""
    ev = parse_evidence(evidence, note)
    fact = ctx.target("add_evidence", fact_id)
    command = AddEvidence(fact.id, ev)
    return decided(ctx, fact.id, command, decide_add_evidence, None, "adding evidence")
