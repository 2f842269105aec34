"""The fact aggregate's spine and importance: confirm, contradict, evidence, visibility,
pin, weight and lifetime.

The commands and ``decide_…(state, command, now)`` functions that vouch for a fact, set
who may see it and how much it matters and how long it lives, on the
:class:`~embornal.domain.facts.aggregate.FactState` that :mod:`embornal.domain.facts.aggregate`
folds (its ``evolve`` folds the events these decide). Pure, as the core life cycle there:
the service loads the state, decides, and appends the events.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.events import (
    DomainEvent,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    FactVisibilityChanged,
    evidence_fields,
)
from embornal.domain.facts.aggregate import FactState, FactStatus
from embornal.domain.spine.justification import (
    EvidenceRef,
    as_visibility,
    check_lifetime,
    check_weight,
    stored_visibility,
)
from embornal.domain.values import value
from embornal.errors import AccessDenied, Conflict, InvalidInput, NotFound

__all__ = [
    "AddEvidence",
    "ChangeVisibility",
    "ConfirmFact",
    "ContradictFact",
    "PinFact",
    "SetLifetime",
    "SetWeight",
    "decide_add_evidence",
    "decide_change_visibility",
    "decide_confirm",
    "decide_contradict",
    "decide_pin",
    "decide_set_lifetime",
    "decide_set_weight",
]


# -- commands --------------------------------------------------------------------------


@value
class ConfirmFact:
    """Vouch for a fact, with the evidence that supports it if any."""

    fact_id: str
    evidence: EvidenceRef | None = None


@value
class ContradictFact:
    """``by_id``: the fact that contradicts this one (another, existing fact)."""

    fact_id: str
    by_id: str | None = None
    evidence: EvidenceRef | None = None


@value
class AddEvidence:
    """Attach a piece of evidence to a fact."""

    fact_id: str
    evidence: EvidenceRef


@value
class ChangeVisibility:
    """``visibility``: a :class:`Visibility` or its text; ``actor``: who asks."""

    fact_id: str
    visibility: object
    actor: str


@value
class PinFact:
    """Pin (``pinned=True``) or unpin a fact."""

    fact_id: str
    pinned: bool


@value
class SetWeight:
    """An explicit user weight, 0..1 (None: take the weight off)."""

    fact_id: str
    weight: object


@value
class SetLifetime:
    """A new lifetime: a :class:`Lifetime` or its text (``until:YYYY-MM-DD``)."""

    fact_id: str
    lifetime: object


_Targeted = (ConfirmFact | ContradictFact | AddEvidence | ChangeVisibility) | (
    PinFact | SetWeight | SetLifetime
)


def _check_target(state: FactState, command: _Targeted) -> None:
    if command.fact_id != state.fact_id:
        raise ValueError(f"a command for fact {command.fact_id} met the state of {state.fact_id}")


# -- the justification spine -------------------------------------------------------------


def _check_active(state: FactState, doing: str) -> None:
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}; only an active fact can be {doing}",
            hint="Act on the newest fact of the chain (see `embornal memory show`).",
        )


def decide_confirm(state: FactState, command: ConfirmFact, now: datetime) -> list[DomainEvent]:
    """``[FactConfirmed]`` with the evidence, if any; only an active fact is confirmed."""
    _check_target(state, command)
    _check_active(state, "confirmed")
    return [FactConfirmed(state.fact_id, **evidence_fields(command.evidence))]


def decide_contradict(
    state: FactState,
    command: ContradictFact,
    now: datetime,
    by: FactState | None = None,
) -> list[DomainEvent]:
    """``[FactContradicted]``; only an active fact is contradicted, and ``by_id`` must
    name another fact, whose state (loaded by the caller) is ``by``."""
    _check_target(state, command)
    if command.by_id is not None:
        if command.by_id == state.fact_id:
            raise InvalidInput(f"fact {state.fact_id} cannot contradict itself")
        if by is None or by.fact_id != command.by_id:
            raise NotFound(f"no fact with id {command.by_id}")
    _check_active(state, "contradicted")
    return [FactContradicted(state.fact_id, command.by_id, **evidence_fields(command.evidence))]


def decide_add_evidence(state: FactState, command: AddEvidence, now: datetime) -> list[DomainEvent]:
    """``[FactEvidenceAdded]`` (a weak confirm); only an active fact takes evidence."""
    _check_target(state, command)
    _check_active(state, "given evidence")
    ev = command.evidence
    return [FactEvidenceAdded(state.fact_id, ev.type.value, ev.value, ev.note)]


def decide_change_visibility(
    state: FactState, command: ChangeVisibility, now: datetime
) -> list[DomainEvent]:
    """``[FactVisibilityChanged]``, or ``[]`` when it is that already. Only the owner sets
    who may see a fact (decision 0038); a purged fact has nothing left to see."""
    _check_target(state, command)
    visibility = as_visibility(command.visibility)
    if command.actor != state.owner:
        raise AccessDenied(
            f"subject {command.actor} may not change the visibility of fact {state.fact_id}: "
            f"only its owner {state.owner} may",
            hint="Ask the fact's owner to change its visibility.",
        )
    if state.status is FactStatus.PURGED:
        raise Conflict(f"fact {state.fact_id} was purged; its content is gone for good")
    if stored_visibility(str(visibility)) == state.visibility:
        return []
    return [FactVisibilityChanged(state.fact_id, str(visibility))]


# -- importance and lifetime (docs/model.md, The spine) ---------------------------------
#
# Each is idempotent: a command that would change nothing (pin a pinned fact, the weight
# or lifetime it has) decides no event, and the service writes nothing.


def _importance(state: FactState, pinned: bool, weight: float | None) -> list[DomainEvent]:
    if pinned == state.pinned and weight == state.user_weight:
        return []
    return [FactImportanceAdjusted(state.fact_id, pinned, weight, state.pinned, state.user_weight)]


def decide_pin(state: FactState, command: PinFact, now: datetime) -> list[DomainEvent]:
    """``[FactImportanceAdjusted]`` pinning or unpinning an active fact; ``[]`` when it
    already is pinned; an unpin of a fact that is not pinned is an audited no-op
    (``[MemoryUnpinNoop]``). A new pin meets the history protocol's conditions first
    (consolidated; sensitive only with the corroboration gate met: decision 0065)."""
    from embornal.domain.history.protocol import check_pin, unpin_noop

    _check_target(state, command)
    _check_active(state, "pinned" if command.pinned else "unpinned")
    if command.pinned and not state.pinned:
        check_pin(state)
    if not command.pinned and not state.pinned:
        return unpin_noop(state)
    return _importance(state, bool(command.pinned), state.user_weight)


def decide_set_weight(state: FactState, command: SetWeight, now: datetime) -> list[DomainEvent]:
    """``[FactImportanceAdjusted]`` with the user weight (0..1, ``InvalidImportance``
    outside; None takes it off); ``[]`` when the fact has that weight already."""
    _check_target(state, command)
    weight = None if command.weight is None else check_weight(command.weight)
    _check_active(state, "weighted")
    return _importance(state, state.pinned, weight)


def decide_set_lifetime(state: FactState, command: SetLifetime, now: datetime) -> list[DomainEvent]:
    """``[FactLifetimeChanged]`` for an active fact (an expired one too: a new lifetime
    brings it back); an ``until`` before today is ``InvalidLifetime``. ``[]`` when the
    lifetime is the one it has (an ephemeral one is set again: its horizon restarts)."""
    _check_target(state, command)
    lifetime = check_lifetime(command.lifetime, now=now)
    _check_active(state, "given a lifetime")
    if lifetime == state.lifetime and lifetime.policy.value != "ephemeral":
        return []
    return [FactLifetimeChanged(state.fact_id, str(lifetime), str(state.lifetime))]
