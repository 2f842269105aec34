"""Importance and lifetime: pin, unpin, a user weight, a lifetime; the facts due for
confirmation (docs/model.md, Lifecycle, The spine).

Pinning, weighting and setting a lifetime change how much a fact matters and how long it
lives, not what it says, so each takes ``write`` on the fact (as confirming does, decision
0033). Each is decided on the fact's aggregate (load → decide → append at the loaded
version, again on a concurrent write); one that would change nothing writes nothing.

An ``until`` or ``ephemeral`` lifetime that has run out takes the fact out of recall and
the default reads without an event (the store compares ``expires_at`` with the clock); it
is still resolvable by id, so ``show`` says why and a new lifetime brings it back.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import parse_time
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.paths import normalize_path
from embornal.domain.spine.decay import decay_of, staleness
from embornal.domain.spine.decisions import (
    PinFact,
    SetLifetime,
    SetWeight,
    decide_pin,
    decide_set_lifetime,
    decide_set_weight,
)
from embornal.domain.spine.justification import Lifetime
from embornal.errors import GateRefusal
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.lifecycle import decided, on_fact
from embornal.service.results import DueFact

__all__ = ["due", "pin", "set_lifetime", "set_weight", "unpin"]


def _pin(ctx: ServiceContext, fact_id: str, pinned: bool, reason: str | None) -> Fact:
    why = check_reason(reason, required=False)
    if not pinned and why is None:  # decision 0065: a legacy unpin is recorded as such
        from embornal.domain.history.protocol import LEGACY_UNPIN_REASON

        why = LEGACY_UNPIN_REASON
    fact = ctx.target("pin" if pinned else "unpin", fact_id)
    now = ctx.now()
    command = PinFact(fact.id, pinned)
    doing = "pinning a fact" if pinned else "unpinning a fact"
    try:
        on_fact(ctx, fact.id, lambda s: decide_pin(s, command, now), why, doing)
    except GateRefusal:
        if pinned:  # the gate's refusal is recorded: pin_denied (decision 0142)
            from embornal.service.history.audited import record_refusal

            record_refusal(ctx, fact.id, "pin", why)
        raise
    return ctx.reload(fact.id)


def pin(ctx: ServiceContext, fact_id: str, *, reason: str | None = None) -> Fact:
    """Pin an active fact: it ranks higher in recall and is never due for pruning. The
    history protocol's rules apply (consolidated only; a sensitive one only with the
    corroboration gate met); past the soft anchor limit the fact carries a warning."""
    from dataclasses import replace

    from embornal.domain.history.protocol import SOFT_ANCHOR_LIMIT

    fact = _pin(ctx, fact_id, True, reason)
    anchors = ctx.store.protocol.anchor_count(ctx.scope(guide=False))  # the guide's are not counted
    if anchors > SOFT_ANCHOR_LIMIT:
        warning = (
            f"{anchors} anchors are pinned, past the soft limit of {SOFT_ANCHOR_LIMIT}: "
            "anchors always come first in recall; unpin the ones that no longer hold"
        )
        return replace(fact, warnings=(warning,))
    return fact


def unpin(ctx: ServiceContext, fact_id: str, *, reason: str | None = None) -> Fact:
    """Take the pin off; an unpin of a fact that is not pinned is recorded as a no-op. A
    missing reason is the legacy unpin (recorded as such); a blank one is refused."""
    if isinstance(reason, str) and not reason.strip():
        from embornal.errors import InvalidInput

        raise InvalidInput(
            "an unpin's reason is blank",
            hint="Say why the anchor comes off, or leave reason out (a legacy unpin).",
        )
    return _pin(ctx, fact_id, False, reason)


def set_weight(
    ctx: ServiceContext, fact_id: str, weight: float | None, *, reason: str | None = None
) -> Fact:
    """The user weight of an active fact, 0..1 (None takes it off; 0.5 is neutral)."""
    from embornal.domain.spine.justification import check_weight

    why = check_reason(reason, required=False)
    if weight is not None:
        check_weight(weight)  # bad input before the fact is even looked up
    fact = ctx.target("set_weight", fact_id)
    command = SetWeight(fact.id, weight)
    return decided(ctx, fact.id, command, decide_set_weight, why, "weighting a fact")


def set_lifetime(
    ctx: ServiceContext, fact_id: str, lifetime: Lifetime | str, *, reason: str | None = None
) -> Fact:
    """A new lifetime for an active fact (an expired one too: it comes back)."""
    from embornal.domain.spine.justification import check_lifetime

    why = check_reason(reason, required=False)
    check_lifetime(lifetime, now=ctx.now())  # bad input before the fact is looked up
    fact = ctx.target("set_lifetime", fact_id)
    command = SetLifetime(fact.id, lifetime)
    return decided(ctx, fact.id, command, decide_set_lifetime, why, "setting a lifetime")


def due(
    ctx: ServiceContext, *, limit: int | None = None, under: str | None = None
) -> list[DueFact]:
    """The live facts the subject may read that are stale now (``c_eff`` below the kind's
    threshold, docs/model.md, The spine), most urgent first: the lowest ``c_eff`` / threshold.
    The guide under ``/memory`` is never due (decision 0154)."""
    n = check_limit(limit, ctx.default_limit)
    prefix = None if under is None else normalize_path(under)
    now = ctx.now()
    found: list[tuple[float, str, float, float, float]] = []
    anchors: dict[str, datetime] = {}
    for row in ctx.store.spine_rows(ctx.scope(guide=False), under=prefix):
        confirmed = parse_time(row.last_confirmed_at) if row.last_confirmed_at else None
        since = confirmed or parse_time(row.created_at)
        c_eff, stale = staleness(
            row.confidence,
            row.kind,
            since,
            now,
            status=row.status,
            permanent=row.lifetime == "permanent",
        )
        if stale:
            threshold = decay_of(row.kind).stale_below
            ratio = c_eff / threshold if threshold > 0 else 0.0
            found.append((ratio, row.fact_id, row.confidence, c_eff, threshold))
            anchors[row.fact_id] = since
    found.sort()
    top = found[:n]
    facts = {f.id: f for f in ctx.store.get_facts([t[1] for t in top], ctx.scope())}
    return [
        DueFact(facts[fid], c, c_eff, threshold, anchors[fid])
        for _, fid, c, c_eff, threshold in top
        if fid in facts
    ]
