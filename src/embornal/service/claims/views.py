"""Reading the claims ledger (decisions 0081, 0083): loading a claim (now, or as the
ledger held it at a record time), who may see it, and the records the use cases return.

**Who sees a claim**: a subject that may read every memory the claim ever cited (what it
is about, and its evidence, retracted evidence too), and, when the claim cites no memory
(only source labels), its owner alone. To anyone else the claim does not exist (the same
"no claim" as an id never used), so a claim never tells a subject that a memory it may
not read exists. Access is decided as it is now, also for a view at a past time
(decision 0042); a purged memory is read by no one, so the claims citing it leave every
view (their text is erased by the purge too).

**Whose text shows** (decision 0168): while a memory the claim cites is forgotten, every
view withholds the claim's text (statement, attribution, evidence texts, origin labels,
reasons: what a purge of that memory would erase), now and at any ``as_of``, and names
the forgotten memories in ``withheld_by``; a restore shows the text again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from embornal.domain.as_of import parse_as_of
from embornal.domain.bounds import check_query_length
from embornal.domain.claims.ledger import ID_PREFIX, ClaimState, fold, stream_of
from embornal.domain.claims.ledger import valid_at as holds_at
from embornal.domain.clock import format_time
from embornal.domain.events import Event
from embornal.domain.facts.aggregate import FactState
from embornal.domain.facts.fact import Fact
from embornal.domain.history.provenance import clean_label
from embornal.errors import InvalidInput, NotFound
from embornal.service.claims.results import (
    ClaimDecision,
    ClaimEvidence,
    ClaimList,
    ClaimRecord,
    ClaimSupport,
)
from embornal.service.context import ServiceContext, check_limit, single_match, visible_matches

__all__ = [
    "Loaded",
    "find",
    "load",
    "material_of",
    "normalize_claim_id",
    "record_of",
    "visible_facts",
]

_ID = re.compile(ID_PREFIX + r"[0-9A-HJKMNP-TV-Z]{1,26}")
_LIST_HINT = (
    'recall_claims(status="all") lists the claims you may see, with their ids '
    "(`embornal claim list --status all`)"
)


def normalize_claim_id(raw: object) -> str:
    text = str(raw if raw is not None else "").strip().upper()
    if not _ID.fullmatch(text):
        raise InvalidInput(
            f"a claim id is {ID_PREFIX} and 26 characters of 0-9 and A-Z (a unique prefix "
            f"works), not {str(raw)[:40]!r}",
            hint=_LIST_HINT,
        )
    return text


STATUSES = ("current", "adopted", "proposed", "withdrawn", "superseded", "all")
_MAX_LABEL = 500


def time_of(ctx: ServiceContext, value: object, what: str, *, future: bool) -> datetime | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return parse_as_of(value, ctx.now(), future=future)
    except InvalidInput as e:
        raise type(e)(f"{what}: {e.message}", hint=e.hint) from None


def label_of(value: object, what: str) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > _MAX_LABEL or "\x00" in value:
        raise InvalidInput(f"{what} must be text of at most {_MAX_LABEL} characters")
    return value.strip()


Loaded = tuple[ClaimState, dict[str, Fact]]
"""A claim and the memories it cites, as the subject reads them now."""


def visible_facts(
    ctx: ServiceContext, state: ClaimState, cited: Sequence[str]
) -> dict[str, Fact] | None:
    """The cited memories when the subject may see the claim (see the module), else None."""
    ids = list(dict.fromkeys([*cited, *state.cited()]))
    if not ids:
        return {} if state.owner == ctx.subject else None
    facts = {f.id: f for f in ctx.store.get_facts(ids, ctx.scope()) if f.purged_at is None}
    return facts if all(i in facts for i in ids) else None


def load(ctx: ServiceContext, claim_id: str, as_of: datetime | None = None) -> Loaded:
    """The claim (full id or unique prefix among those the subject may see: a hidden one
    makes no prefix ambiguous), now or at ``as_of``."""
    prefix = normalize_claim_id(claim_id)
    seen: dict[str, tuple[list[Event], ClaimState, dict[str, Fact]]] = {}

    def may_see(found: str) -> bool:
        events = ctx.store.read_stream(stream_of(found))
        state = fold(events)
        if state is None:  # pragma: no cover - the projection has it from its stream
            return False
        facts = visible_facts(ctx, state, ctx.store.claims.claim_citations([found]).get(found, ()))
        if facts is None:
            return False
        seen[found] = (events, state, facts)
        return True

    ids = visible_matches(
        lambda after, n: ctx.store.claims.claim_ids(prefix, after=after, limit=n), may_see
    )
    full = single_match(ids, "claim", prefix, claim_id, _LIST_HINT)
    events, now_state, facts = seen[full]
    if as_of is None:
        return now_state, facts
    then = fold(events, until=as_of)
    if then is None:
        raise NotFound(f"claim {full} was not recorded yet at {as_of.isoformat()}", hint=_LIST_HINT)
    return then, facts


def find(ctx: ServiceContext, claim_id: str) -> ClaimState:
    return load(ctx, claim_id)[0]


def issues_of(state: ClaimState, facts: dict[str, Fact]) -> tuple[str, ...]:
    """What is wrong with the material now: a cited memory forgotten or superseded."""
    out = []
    for e in state.active_evidence:
        fact = facts.get(e.memory_id or "")
        if fact is not None and fact.state != "active":
            out.append(f"memory {fact.id} is {fact.state}")
    return tuple(out)


def withheld_by(facts: dict[str, Fact]) -> tuple[str, ...]:
    """The memories the claim cites that are forgotten now: while there is one, the claim's
    text is withheld (decision 0168). A superseded memory is a correction: it withholds
    nothing."""
    return tuple(sorted(i for i, f in facts.items() if f.state == "forgotten"))


def material_of(ctx: ServiceContext, state: ClaimState) -> dict[str, FactState]:
    """The protocol state of each memory the claim's evidence cites (origin, sensitivity)."""
    out = {}
    for e in state.evidence:
        if e.memory_id and e.memory_id not in out:
            found = ctx.store.fact_state(e.memory_id)
            if found is not None:
                out[e.memory_id] = found
    return out


def record_of(
    ctx: ServiceContext, state: ClaimState, facts: dict[str, Fact], as_of: datetime | None = None
) -> ClaimRecord:
    origins = {k: v.source for k, v in material_of(ctx, state).items()}
    groups = state.origin_groups(origins)
    supporting = state.supporting
    active = state.active_evidence
    known = sum(
        1
        for e in supporting
        if clean_label(e.common_origin)
        or clean_label(e.source if e.memory_id is None else origins.get(e.memory_id))
    )
    support = ClaimSupport(
        supporting=len(supporting),
        challenging=sum(e.stance == "challenges" for e in active),
        context=sum(e.stance == "context" for e in active),
        origin_groups=groups.independent,
        unknown_origin=len(supporting) - known,
    )
    issues = issues_of(state, facts)
    hidden = withheld_by(facts)
    evidence = tuple(
        ClaimEvidence(
            e.evidence_id,
            e.stance,
            e.memory_id,
            e.source,
            e.note,
            e.quote,
            e.locator,
            e.common_origin,
            e.recorded_at,
            e.recorded_by,
            e.active,
            e.retracted_at,
        )
        for e in state.evidence
    )
    history = tuple(
        ClaimDecision(d.action, d.recorded_at, d.actor, d.reason, d.detail) for d in state.history
    )
    review = state.review_required or (state.status.value == "adopted" and bool(issues))
    if hidden:
        evidence = tuple(
            replace(e, source=None, note=None, quote=None, locator=None, common_origin=None)
            for e in evidence
        )
        history = tuple(replace(d, reason=None) for d in history)
        support = replace(support, origin_groups=())
    return ClaimRecord(
        id=state.claim_id,
        statement=None if hidden else state.statement,
        claim_type=state.claim_type,
        scope=state.scope,
        status=state.status.value,
        owner=state.owner,
        recorded_at=state.created_at,
        updated_at=state.last_at,
        asserted_by=None if hidden else state.asserted_by,
        statement_at=state.statement_at,
        valid_from=state.valid_from,
        valid_until=state.valid_until,
        about=state.about,
        sensitive=state.sensitive,
        evidence=evidence,
        support=support,
        review_required=review,
        eligible_for_recall=state.eligible and not review and not state.redacted and not hidden,
        source_issues=issues,
        replaced_by=_seen(ctx, state.replaced_by),
        replaces=_seen(ctx, state.replaces),
        redacted=state.redacted or bool(hidden),
        withheld_by=hidden,
        as_of=as_of,
        history=history,
    )


def _seen(ctx: ServiceContext, claim_id: str | None) -> str | None:
    """``claim_id`` when the subject may see that claim, else None: a replacement or a
    replaced claim the reader may not see is not named (decision 0083)."""
    if claim_id is None:
        return None
    try:
        load(ctx, claim_id)
    except NotFound:
        return None
    return claim_id


def claim(ctx: ServiceContext, claim_id: str, *, as_of: object = None) -> ClaimRecord:
    """One claim with its evidence and history, now or as the ledger held it at ``as_of``."""
    at = time_of(ctx, as_of, "as_of", future=False)
    state, facts = load(ctx, claim_id, at)
    return record_of(ctx, state, facts, at)


def _score(record: ClaimRecord, words: Sequence[str]) -> int:
    text = " ".join(
        [record.statement or "", *(e.note or "" for e in record.evidence if e.active)]
    ).casefold()
    return sum(1 for w in words if w in text)


def recall_claims(
    ctx: ServiceContext,
    query: str | None = None,
    *,
    status: str | None = None,
    scope: str | None = None,
    as_of: object = None,
    valid_at: object = None,
    limit: int | None = None,
    include_inactive: bool = False,
) -> ClaimList:
    """The claims the subject may see, newest first (best matches first for a query):
    by default the adopted claims whose review is current (``status``: current)."""
    chosen = str(status or ("all" if include_inactive else "current")).strip().lower()
    if chosen not in STATUSES:
        raise InvalidInput(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    n = check_limit(limit, ctx.default_limit)
    check_query_length(query)
    at = time_of(ctx, as_of, "as_of", future=False)
    when = time_of(ctx, valid_at, "valid_at", future=True)
    rows = ctx.store.claims.claim_rows(
        scope=label_of(scope, "scope"),
        recorded_by=None if at is None else format_time(at),
        limit=5000,
    )
    cited = ctx.store.claims.claim_citations([r.claim_id for r in rows])
    found: list[ClaimRecord] = []
    for row in rows:
        events = ctx.store.read_stream(stream_of(row.claim_id))
        now_state, then = fold(events), fold(events, until=at)
        if now_state is None or then is None:
            continue
        facts = visible_facts(ctx, now_state, cited.get(row.claim_id, ()))
        if facts is None or (when is not None and not holds_at(then, when)):
            continue
        rec = record_of(ctx, then, facts, at)
        if chosen == "current" and not rec.eligible_for_recall:
            continue
        if chosen not in ("current", "all") and rec.status != chosen:
            continue
        found.append(rec)
    words = [w for w in (query or "").casefold().split() if w]
    if words:
        scored = [(r, _score(r, words)) for r in found]
        found = [r for r, s in sorted(scored, key=lambda x: -x[1]) if s > 0]
    return ClaimList(tuple(found[:n]), len(found), len(found) > n, chosen, at, when, query)
