"""The claims ledger's use cases (docs/model.md, Claims; decisions 0081–0083):
create a claim, give it evidence, adopt, revise, replace or withdraw it, and recall the
claims as the ledger holds them now or held them at a record time.

Each command loads the claim (:mod:`.claim_views`), decides (:mod:`embornal.domain.claims.ledger`)
and appends at the version it read, again on a concurrent write. A claim changes only by
its owner, the subject that recorded it; evidence may cite a memory only when the subject
may read it now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from embornal.domain.claims.ledger import (
    ClaimState,
    CreateClaim,
    NewEvidence,
    Revision,
    choose_stance,
    choose_type,
    decide_adopt,
    decide_create,
    decide_evidence,
    decide_replace,
    decide_retract,
    decide_revise,
    decide_withdraw,
    recorded_time,
    stream_of,
)
from embornal.domain.events import DomainEvent, NewEvent
from embornal.domain.facts.fact import check_content, check_reason
from embornal.domain.history.protocol import gate_of, history_of
from embornal.domain.history.screening import screen
from embornal.domain.ids import new_id
from embornal.errors import AccessDenied, ConcurrencyError, Conflict, InvalidInput
from embornal.service.claims import views as views
from embornal.service.claims.results import ClaimRecord
from embornal.service.claims.views import claim
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import MAX_ATTEMPTS

__all__ = [
    "add_claim_evidence",
    "adopt_claim",
    "create_claim",
    "retract_claim_evidence",
    "revise_claim",
    "withdraw_claim",
]


def _statement(value: object) -> str:
    try:
        return check_content(value)
    except InvalidInput as e:
        raise type(e)(e.message.replace("content", "statement"), hint=e.hint) from None


def _append(
    ctx: ServiceContext,
    doing: str,
    batches: Sequence[tuple[ClaimState | None, str, Sequence[DomainEvent]]],
    reason: str | None,
) -> None:
    events: list[NewEvent] = []
    for state, stream, bodies in batches:
        at = recorded_time(state, ctx.now())
        version = 0 if state is None else state.version
        for i, body in enumerate(bodies):
            event = ctx.event(stream, body, reason, expected_version=version + i)
            events.append(replace(event, recorded_at=at))
    if events:
        ctx.append(doing, events)


def _owned(ctx: ServiceContext, state: ClaimState) -> None:
    if state.owner != ctx.subject:
        raise AccessDenied(
            f"claim {state.claim_id} is {state.owner}'s judgment: only its owner changes it",
            hint="create_claim(statement, claim_type, reason) records a judgment of your own "
            "(`embornal claim create STATEMENT --type TYPE`)",
        )


CLAIM_PATH = "/claims"
"""Where the claims ledger is, for the rights of a claim's owner (decision 0128)."""
_MEMORIES = "the claim's memories"
"""The rights table's target of a claim's later operations: the memories it is about."""


def _may_record(ctx: ServiceContext, operation: str, about: Sequence[str]) -> None:
    """The rights table's for a claim: ``write`` on each memory it is about that the
    subject still reads, and the ledger's right (a read-only subject records no claim)."""
    for memory in about:
        fact = ctx.store.get_fact(memory, ctx.scope())
        if fact is not None:
            ctx.check(
                operation, "about" if operation == "chronicle.create_claim" else _MEMORIES, fact
            )
    ctx.check_ledger(operation, CLAIM_PATH)


def _retrying(
    ctx: ServiceContext,
    claim_id: str,
    doing: str,
    step: Callable[[ClaimState], None],
    operation: str,
) -> ClaimRecord:
    for _ in range(MAX_ATTEMPTS):
        state = views.find(ctx, claim_id)
        _owned(ctx, state)
        _may_record(ctx, operation, state.about)
        try:
            step(state)
        except ConcurrencyError:
            continue
        return claim(ctx, state.claim_id)
    raise Conflict(
        f"claim {claim_id} changed {MAX_ATTEMPTS} times while {doing}; nothing was written"
    )


def _cited_memory(ctx: ServiceContext, memory_id: str) -> str:
    fact = ctx.resolve(memory_id)  # NotFound when the subject may not read it
    if fact.state != "active":
        raise InvalidInput(
            f"memory {fact.id} is {fact.state}: evidence cites live material",
            hint="restore(memory_id, reason) it first, or cite another memory",
        )
    return fact.id


def create_claim(
    ctx: ServiceContext,
    statement: str,
    claim_type: str,
    *,
    reason: str | None = None,
    scope: str | None = None,
    about: Sequence[str] | None = None,
    asserted_by: str | None = None,
    statement_at: object = None,
    valid_from: object = None,
    valid_until: object = None,
    security_sensitive: bool = False,
) -> ClaimRecord:
    """Record a proposed claim (a judgment about material, apart from the material)."""
    text = _statement(statement)
    kind = choose_type(claim_type)
    why = check_reason(reason, required=False)
    found = screen(text)
    command = CreateClaim(
        statement=text,
        claim_type=kind,
        scope=views.label_of(scope, "scope") or "global",
        asserted_by=views.label_of(asserted_by, "asserted_by"),
        statement_at=views.time_of(ctx, statement_at, "statement_at", future=True),
        valid_from=views.time_of(ctx, valid_from, "valid_from", future=True),
        valid_until=views.time_of(ctx, valid_until, "valid_until", future=True),
        about=tuple(dict.fromkeys(_cited_memory(ctx, m) for m in (about or ()))),
        sensitive=bool(security_sensitive) or found.flagged,
        screened=found.matches,
    )
    _may_record(ctx, "chronicle.create_claim", command.about)
    claim_id = "C" + new_id(ctx.now())
    _append(
        ctx,
        "creating a claim",
        [(None, stream_of(claim_id), decide_create(command, claim_id))],
        why,
    )
    return claim(ctx, claim_id)


def add_claim_evidence(
    ctx: ServiceContext,
    claim_id: str,
    *,
    memory_id: str | None = None,
    source: str | None = None,
    stance: str | None = None,
    note: str | None = None,
    quote: str | None = None,
    locator: str | None = None,
    common_origin: str | None = None,
) -> ClaimRecord:
    """Cite specific material for the claim: a memory the subject may read, or a source."""
    side = choose_stance(stance)
    label = views.label_of(source, "source")
    memory = None if memory_id is None else _cited_memory(ctx, memory_id)
    said = views.label_of(quote, "quote")
    if said is not None and memory is not None:
        content = ctx.resolve(memory).content
        if said not in content:
            raise InvalidInput(
                "the quote must be words of the memory, exactly as they are in it",
                hint="put an interpretation in note; quote only the memory's own words",
            )
    note_text = views.label_of(note, "note")
    place = views.label_of(locator, "locator")
    origin = views.label_of(common_origin, "common_origin")
    cmd = NewEvidence(side, memory, label, note_text, said, place, origin)

    def step(state: ClaimState) -> None:
        number = f"{state.claim_id}-{len(state.evidence) + 1}"
        body = decide_evidence(state, cmd, number)
        _append(ctx, "adding claim evidence", [(state, stream_of(state.claim_id), body)], cmd.note)

    return _retrying(ctx, claim_id, "adding evidence", step, "chronicle.add_claim_evidence")


def retract_claim_evidence(ctx: ServiceContext, evidence_id: str, reason: str) -> ClaimRecord:
    """Retire one evidence association (``C…-N``); the material is untouched."""
    why = check_reason(reason)
    raw = str(evidence_id or "").strip().upper()
    claim_id, _, number = raw.rpartition("-")
    if not claim_id or not number.isdigit():
        raise InvalidInput(f"an evidence id is the claim's id, '-' and a number, not {raw[:40]!r}")

    def step(state: ClaimState) -> None:
        body = decide_retract(state, f"{state.claim_id}-{number}")
        _append(ctx, "retracting claim evidence", [(state, stream_of(state.claim_id), body)], why)

    return _retrying(ctx, claim_id, "retracting evidence", step, "chronicle.retract_claim_evidence")


def _problems(ctx: ServiceContext, state: ClaimState) -> list[str]:
    """What stands against adopting the claim's active evidence (see check_adoptable)."""
    loaded = views.material_of(ctx, state)
    out = []
    for e in state.active_evidence:
        fs = loaded.get(e.memory_id or "")
        if fs is None:
            continue
        if fs.state != "active":
            out.append(f"memory {e.memory_id} is {fs.state}")
        elif history_of(fs).sensitive and not gate_of(fs).satisfied:
            out.append(f"memory {e.memory_id} is sensitive: {gate_of(fs).explain()}")
    if state.sensitive:
        groups = state.origin_groups({k: v.source for k, v in loaded.items()})
        if not groups.satisfied:
            out.append(f"the claim is sensitive: its supporting evidence has {groups.explain()}")
    return out


def adopt_claim(ctx: ServiceContext, claim_id: str, reason: str) -> ClaimRecord:
    """Record the judgment: adopt (or re-review) the claim on its supporting evidence."""
    why = check_reason(reason)

    def step(state: ClaimState) -> None:
        body = decide_adopt(state, _problems(ctx, state))
        _append(ctx, "adopting a claim", [(state, stream_of(state.claim_id), body)], why)

    return _retrying(ctx, claim_id, "adopting", step, "chronicle.adopt_claim")


def revise_claim(
    ctx: ServiceContext,
    claim_id: str,
    reason: str,
    *,
    statement: str | None = None,
    replacement_id: str | None = None,
    valid_from: object = None,
    valid_until: object = None,
) -> ClaimRecord:
    """A new version of the claim (statement, valid time), or, with ``replacement_id``, the
    adopted claim superseded by a supported proposed one, which is adopted (returned)."""
    why = check_reason(reason)
    if replacement_id is not None:
        if statement is not None or valid_from is not None or valid_until is not None:
            raise InvalidInput("give replacement_id, or a new statement or valid time: not both")
        return _replace(ctx, claim_id, replacement_id, why)
    revision = Revision(
        None if statement is None else _statement(statement),
        views.time_of(ctx, valid_from, "valid_from", future=True),
        views.time_of(ctx, valid_until, "valid_until", future=True),
    )

    def step(state: ClaimState) -> None:
        body = decide_revise(state, revision)
        _append(ctx, "revising a claim", [(state, stream_of(state.claim_id), body)], why)

    return _retrying(ctx, claim_id, "revising", step, "chronicle.revise_claim")


def _replace(
    ctx: ServiceContext, claim_id: str, replacement_id: str, why: str | None
) -> ClaimRecord:
    for _ in range(MAX_ATTEMPTS):
        old, new = views.find(ctx, claim_id), views.find(ctx, replacement_id)
        _owned(ctx, old)
        _owned(ctx, new)
        _may_record(ctx, "chronicle.revise_claim", (*old.about, *new.about))
        olds, news = decide_replace(old, new, _problems(ctx, new))
        try:
            batches = [(old, stream_of(old.claim_id), olds), (new, stream_of(new.claim_id), news)]
            _append(ctx, "replacing a claim", batches, why)
        except ConcurrencyError:
            continue
        return claim(ctx, new.claim_id)
    raise Conflict(
        f"claim {claim_id} changed {MAX_ATTEMPTS} times while replacing; nothing was written"
    )


def withdraw_claim(ctx: ServiceContext, claim_id: str, reason: str) -> ClaimRecord:
    """End the judgment (terminal); the material and the history stay."""
    why = check_reason(reason)

    def step(state: ClaimState) -> None:
        body = decide_withdraw(state)
        _append(ctx, "withdrawing a claim", [(state, stream_of(state.claim_id), body)], why)

    return _retrying(ctx, claim_id, "withdrawing", step, "chronicle.withdraw_claim")
