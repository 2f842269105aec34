"""The history protocol's use cases (docs/model.md, The history protocol; decisions
0064–0066): capture and consolidation, tiers
and review, corroboration and provenance, sensitivity, and the queues; the rules are
:mod:`embornal.domain.history.protocol`'s. Pin, unpin, forget and restore are the memory's own
(:mod:`.importance`, :mod:`.lifecycle`), which apply the same rules (decision 0065).

Each write loads the fact's state, decides, and appends at the loaded version (again on
a concurrent write), so a pin racing a flag, or a forget racing a pin, is decided on the
state the other left: the final state obeys the rules and the log says why.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from embornal.domain.access.rights import OVERDUE
from embornal.domain.clock import format_time
from embornal.domain.events import DomainEvent, FactImportanceAdjusted
from embornal.domain.events.canon import MemoryDecanonized, MemoryFramed
from embornal.domain.facts.aggregate import FactState, StoreFact, decide_store
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.history.canon import check_label
from embornal.domain.history.context import check_context
from embornal.domain.history.protocol import (
    REVIEW_DAYS,
    decide_capture,
    decide_corroborate,
    decide_flag_sensitive,
    decide_overdue,
    decide_promote,
    decide_review,
    gate_of,
    history_of,
    testimony_warning,
)
from embornal.domain.history.screening import screen
from embornal.domain.ids import new_id
from embornal.errors import InvalidInput, NotFound
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.lifecycle import on_fact, run_command
from embornal.service.history.results import (
    DueMemory,
    ForgottenMemory,
    MemoryStatus,
    ProvenanceReport,
)
from embornal.storage.contract.store import Tx

__all__ = [
    "INBOX",
    "corroborate",
    "due_for_consolidation",
    "due_for_review",
    "flag_sensitive",
    "inbox_path",
    "list_forgotten",
    "memory_status",
    "promote",
    "provenance",
    "remember",
    "review",
    "status",
]

#: Where ``remember`` puts a memory given no path: ``/inbox/<session>``, the session being
#: the one named, else the UTC day of the capture (decision 0064).
INBOX = "/inbox"
_SEGMENT = re.compile(r"[^a-z0-9._-]+")
_MAX_DAYS = 36_500


def inbox_path(session: str | None, now: datetime) -> str:
    """The default path of a capture: one inbox per session (or per day)."""
    if session is not None:
        seg = _SEGMENT.sub("-", session.strip().lower()).strip("-._")
        if seg and seg[0].isalnum():
            return f"{INBOX}/{seg[:80]}"
    return f"{INBOX}/{now.date().isoformat()}"


def _check_days(days: object, default: int | None) -> int | None:
    if days is None:
        return default
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= _MAX_DAYS:
        raise InvalidInput(f"days must be a whole number from 0 to {_MAX_DAYS} (got {days!r})")
    return days


def status(ctx: ServiceContext, fact_id: str, *, warnings: tuple[str, ...] = ()) -> MemoryStatus:
    """Where a memory the subject may read stands in the protocol."""
    fact = ctx.resolve(fact_id)
    state = ctx.store.fact_state(fact.id)
    if state is None:  # pragma: no cover - resolved just now
        raise NotFound(f"no fact with id {fact_id}")
    return _status(fact, state, warnings)


def memory_status(ctx: ServiceContext, fact_id: str) -> MemoryStatus:
    """Where one memory the subject may read stands in the history protocol: its stage and
    tier, whether it is security-sensitive, its capture and last review, its frame, canon
    scopes and history context. A read: nothing is recorded or reinforced."""
    return status(ctx, fact_id)


def _status(fact: Fact, state: FactState, warnings: tuple[str, ...] = ()) -> MemoryStatus:
    h = history_of(state)
    warned = testimony_warning(state)
    return MemoryStatus(
        fact,
        h.stage,
        h.tier,
        h.sensitive,
        h.screened,
        h.captured_at,
        h.reviewed_at,
        h.session,
        (*warnings, *([warned] if warned else [])),
        h.frame,
        h.scopes,
        h.event_at,
        h.session_position,
        gate_of(state).origin,
        material_type=h.material_type,
        origin_id=h.origin_id,
        capture_context=h.capture_context,
    )


def remember(
    ctx: ServiceContext,
    content: str,
    *,
    source: str | None = None,
    tier: str | None = None,
    path: str | None = None,
    security_sensitive: bool = False,
    session: str | None = None,
    frame: str | None = None,
    reason: str | None = None,
    event_at: datetime | str | None = None,
    session_position: int | None = None,
    material_type: str | None = None,
    origin_id: str | None = None,
    capture_context: str | None = None,
) -> MemoryStatus:
    """Capture working material: an ordinary fact (default path: the session's inbox), its
    capture with its history context (0088) and declared material (0156), screened for
    known injection shapes, and its ``frame`` (0078), in one append."""
    why = check_reason(reason, required=False)
    framed = check_label(frame, "frame", required=False)
    context = check_context(event_at, session, session_position)
    if isinstance(source, str) and not source.strip():
        source = None  # a blank origin is an unknown one (decision 0066)
    now = ctx.now()
    where = path if path is not None else inbox_path(session, now)
    command = StoreFact(new_id(now), where, content, ctx.subject, source=source)
    (stored,) = decide_store(command, now)
    captured = decide_capture(
        stored.fact_id,
        stored.content or "",
        tier=tier,
        security_sensitive=security_sensitive,
        session=context.session,
        event_at=context.event_at,
        session_position=context.session_position,
        material_type=material_type,
        origin_id=origin_id,
        capture_context=capture_context,
    )
    if not ctx.access.unconditional("create"):
        own = {t.key: t.value for t in stored.tags}
        ctx.access.require("create", ctx.access.new_fact_object(stored.path, own))
    vecs = ctx.semantic.embed_documents([stored.content or ""])
    with ctx.store.transaction("remembering") as tx:
        ctx.store.append(
            tx,
            [
                ctx.event(stored.fact_id, stored, why, 0),
                ctx.event(stored.fact_id, captured, why, 1),
                *(
                    [ctx.event(stored.fact_id, MemoryFramed(stored.fact_id, framed), why, 2)]
                    if framed is not None
                    else []
                ),
            ],
        )
        if vecs is not None:
            ctx.semantic.write(tx, [(stored.fact_id, vecs[0])])
    return status(ctx, stored.fact_id)


def _decided(
    ctx: ServiceContext, fact_id: str, operation: str, decide: object, why: str | None, doing: str
) -> Fact:
    fact = ctx.target(operation, fact_id)
    on_fact(ctx, fact.id, decide, why, doing)  # type: ignore[arg-type]
    return fact


def promote(ctx: ServiceContext, fact_id: str, *, reason: str) -> MemoryStatus:
    """Consolidate working material (a reason is required; its tier is unchanged)."""
    why = check_reason(reason)
    fact = _decided(ctx, fact_id, "promote", decide_promote, why, "promoting a memory")
    return status(ctx, fact.id)


def review(ctx: ServiceContext, fact_id: str, *, note: str) -> MemoryStatus:
    """Re-examine an interpretation: its review clock starts again."""
    if not isinstance(note, str) or not note.strip():
        raise InvalidInput("a review needs a note: what was re-examined and what holds")
    why = check_reason(note)
    fact = _decided(
        ctx, fact_id, "review", lambda s: decide_review(s, note), why, "reviewing a memory"
    )
    return status(ctx, fact.id)


def corroborate(
    ctx: ServiceContext,
    fact_id: str,
    source: str,
    *,
    common_origin: str | None = None,
    reason: str | None = None,
) -> ProvenanceReport:
    """Record one corroborating source (always, a repeat too); an archive memory becomes
    testimony once the gate is met."""
    why = check_reason(reason, required=False)
    for label in (source, common_origin):
        if label is not None and (
            not isinstance(label, str) or len(label) > 1000 or "\x00" in label
        ):
            raise InvalidInput("a source label is text of at most 1000 characters, without NUL")
    fact = _decided(
        ctx,
        fact_id,
        "corroborate",
        lambda s: decide_corroborate(s, source, common_origin),
        why,
        "corroborating a memory",
    )
    return provenance(ctx, fact.id)


def provenance(ctx: ServiceContext, fact_id: str) -> ProvenanceReport:
    """What the recorded sources of a memory amount to (read-only)."""
    fact = ctx.resolve(fact_id)
    state = ctx.store.fact_state(fact.id)
    if state is None:  # pragma: no cover
        raise NotFound(f"no fact with id {fact_id}")
    h = history_of(state)
    g = gate_of(state)
    return ProvenanceReport(
        fact.id,
        h.tier,
        h.sensitive,
        g.origin,
        g.sources,
        len(h.corroborations),
        g.independent,
        g.needed,
        g.satisfied,
        g.explain(),
        testimony_warning(state),
    )


def flag_sensitive(ctx: ServiceContext, fact_id: str, *, reason: str) -> MemoryStatus:
    """Flag a memory security-sensitive; an anchor and the canon memberships the
    corroboration gate does not support are lifted in the same append (audited as ``unpin
    by sensitivity`` and ``decanonize by sensitivity``, reversible by corroborating, then
    pinning and canonizing again)."""
    why = check_reason(reason)
    assert why is not None
    fact = ctx.target("flag_sensitive", fact_id)

    unpinned = False

    def decide(state: FactState) -> list[DomainEvent]:
        return decide_flag_sensitive(state, screen(fact.content).matches)

    def write(tx: Tx, state: FactState, bodies: list[DomainEvent]) -> None:
        nonlocal unpinned
        from embornal.service.history.audited import invalidations

        unpinned = any(isinstance(b, FactImportanceAdjusted) for b in bodies)
        lifted = {FactImportanceAdjusted: "unpin", MemoryDecanonized: "decanonize"}
        ctx.store.append(
            tx,
            [
                ctx.event(
                    fact.id,
                    b,
                    f"{lifted[type(b)]} by sensitivity: {why}" if type(b) in lifted else why,
                    state.version + i,
                )
                for i, b in enumerate(bodies)
            ],
        )
        invalidations(ctx, tx, state, bodies, why)  # the narratives resting on it (0142)

    run_command(ctx.store, fact.id, decide, write, "flagging a memory sensitive")
    return replace(status(ctx, fact.id), unpinned=unpinned)


def due_for_consolidation(
    ctx: ServiceContext, *, days: int | None = None, limit: int | None = None
) -> list[DueMemory]:
    """Active working material captured at least ``days`` ago (None: any), oldest first:
    the queue to promote or forget at the end of a session."""
    n = check_limit(limit, ctx.default_limit)
    d = _check_days(days, 0) or 0
    cutoff = format_time(ctx.now() - timedelta(days=d))
    rows = ctx.store.protocol.working_memories(ctx.scope(), captured_before=cutoff, limit=n)
    return [DueMemory(r.fact, r.tier, r.sensitive, r.since) for r in rows]


def due_for_review(
    ctx: ServiceContext, *, days: int | None = None, limit: int | None = None
) -> list[DueMemory]:
    """Active interpretations not reviewed for ``days`` (default 30), longest first. Each
    one the subject may write is marked overdue (stale until reviewed again), and the
    narratives resting on it lose their usability until reviewed too (decision 0142)."""
    n = check_limit(limit, ctx.default_limit)
    d = _check_days(days, REVIEW_DAYS)
    assert d is not None
    cutoff = format_time(ctx.now() - timedelta(days=d))
    rows = ctx.store.protocol.interpretations_due(ctx.scope(), reviewed_before=cutoff, limit=n)
    for r in rows:
        if ctx.may("due_for_review", OVERDUE, r.fact):
            _mark_overdue(ctx, r.fact.id, d)
    return [DueMemory(r.fact, r.tier, r.sensitive, r.since) for r in rows]


def _mark_overdue(ctx: ServiceContext, fact_id: str, days: int) -> None:
    from embornal.service.history.audited import invalidations

    why = f"not reviewed for {days} days"

    def write(tx: Tx, state: FactState, bodies: list[DomainEvent]) -> None:
        if not bodies:
            return
        ctx.store.append(
            tx, [ctx.event(fact_id, b, why, state.version + i) for i, b in enumerate(bodies)]
        )
        invalidations(ctx, tx, state, bodies, why)

    run_command(
        ctx.store, fact_id, lambda s: decide_overdue(s, days), write, "marking a review overdue"
    )


def list_forgotten(ctx: ServiceContext, *, limit: int | None = None) -> list[ForgottenMemory]:
    """The forgotten memories the subject may read, the last forgotten first, with why."""
    n = check_limit(limit, ctx.default_limit)
    rows = ctx.store.protocol.forgotten_memories(ctx.scope(), limit=n)
    return [ForgottenMemory(r.fact, r.forgotten_at, r.reason, r.actor) for r in rows]
