"""The reads of one fact for its page: its place in the history protocol with the claims
and narratives on it (:func:`fact_protocol`), and its access log (:func:`fact_access`,
decision 0160). Each resolves the fact as the subject (a fact it may not read is not
found) and reads by fact through the store: the claims citing it, the narratives resting
on it, the recalls that returned it."""

from __future__ import annotations

from dataclasses import replace

from embornal.domain.claims import ledger as C
from embornal.domain.history.audit import action_of
from embornal.domain.history.protocol import history_of
from embornal.domain.narratives.accounts import fold_account
from embornal.errors import EmbornalError, NotFound
from embornal.service.claims.results import ClaimRecord
from embornal.service.claims.views import record_of, visible_facts
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.read_results import AccessEntry, FactAccess, FactProtocol
from embornal.service.narratives.reads import narrative_of, visible
from embornal.service.narratives.results import Narrative

__all__ = ["fact_access", "fact_protocol"]

#: How many claims and narratives on one fact the page reads at most.
_ON_FACT = 200
#: How many recalls of one fact the access log reads by default.
ACCESS_READS = 200


def fact_protocol(ctx: ServiceContext, fact_id: str) -> FactProtocol:
    """Where a fact the subject may read stands in the protocol, with its provenance (None
    once forgotten), the claims citing it and the narratives resting on it."""
    from embornal.service.history import protocol

    fact = ctx.resolve(fact_id)
    state = ctx.store.fact_state(fact.id)
    if state is None:  # pragma: no cover - resolved just now
        raise NotFound(f"no fact with id {fact_id}")
    h = history_of(state)
    try:
        provenance = protocol.provenance(ctx, fact.id)
    except EmbornalError:  # a forgotten fact has no report
        provenance = None
    return FactProtocol(
        stage=h.stage,
        tier=provenance.tier if provenance is not None else h.tier,
        sensitive=provenance.sensitive if provenance is not None else h.sensitive,
        pinned=fact.pinned,
        canon=h.scopes,
        frame=h.frame,
        session=h.session,
        event_at=h.event_at,
        captured_at=h.captured_at,
        reviewed_at=h.reviewed_at,
        provenance=provenance,
        claims=_claims_on(ctx, fact.id),
        narratives=_narratives_on(ctx, fact.id),
    )


def _claims_on(ctx: ServiceContext, fact_id: str) -> tuple[ClaimRecord, ...]:
    """The claims the subject may see that are about the fact or cite it as evidence."""
    out: list[ClaimRecord] = []
    for row in ctx.store.claims.claims_citing(fact_id, limit=_ON_FACT):
        state = C.fold(ctx.store.read_stream(C.stream_of(row.claim_id)))
        if state is None:  # pragma: no cover - the projection has it from its stream
            continue
        cited = ctx.store.claims.claim_citations([row.claim_id]).get(row.claim_id, ())
        facts = visible_facts(ctx, state, cited)
        if facts is None:
            continue
        rec = record_of(ctx, state, facts, None)
        if fact_id in rec.about or any(v.memory_id == fact_id for v in rec.evidence):
            out.append(rec)
    return tuple(out)


def _narratives_on(ctx: ServiceContext, fact_id: str) -> tuple[Narrative, ...]:
    """The current narrative versions resting on the fact that the subject may see, the
    text of one not usable withheld (as
    :func:`~embornal.service.narratives.accounts.list_narratives` does)."""
    out: list[Narrative] = []
    for row in ctx.store.narratives.narratives_on(fact_id)[:_ON_FACT]:
        account = fold_account(ctx.store.read_stream(row.stream_id))
        if account is None or account.current.narrative_id != row.narrative_id:
            continue
        if not visible(ctx, account.current):
            continue
        v = narrative_of(ctx, account, account.current)
        if not v.usable:
            v = replace(v, content=None, coverage=None, withheld=True)
        out.append(v)
    return tuple(out)


def fact_access(ctx: ServiceContext, fact_id: str, *, limit: int | None = None) -> FactAccess:
    """Who recalled a fact the subject may read, and when, with the changes of its stream,
    newest first. A reinforcing recall is the one read the log records (decision 0160):
    the subject sees its own; the fact's owner, or a subject who reads everything, sees
    every subject's."""
    from embornal.service.shown_events import shown_events

    n = check_limit(limit, ACCESS_READS)
    fact = ctx.resolve(fact_id)
    everyone = fact.owner == ctx.subject or ctx.access.unconditional("read")
    recalls = ctx.store.recalls_of(fact.id, limit=n + 1)
    more = len(recalls) > n
    entries: list[AccessEntry] = []
    hidden = 0
    for ev in recalls[:n]:
        if not everyone and ev.actor != ctx.subject:
            hidden += 1
            continue
        count = len(getattr(ev.body, "fact_ids", ())) or 1
        entries.append(
            AccessEntry(
                ev.recorded_at,
                ev.actor,
                str(ev.actor_kind),
                True,
                "recall",
                ev.position,
                None,
                count,
            )
        )
    for ev in shown_events(ctx, ctx.store.stream(fact.id)):
        action = action_of(ev.type, ev.payload, ev.reason)
        entries.append(
            AccessEntry(
                ev.recorded_at, ev.actor, str(ev.actor_kind), False, action, ev.position, ev.reason
            )
        )
    entries.sort(key=lambda a: a.position, reverse=True)
    return FactAccess(fact.id, tuple(entries), hidden, more)
