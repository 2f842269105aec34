"""A narrative's claims as a subject sees them (decision 0098): validating the claims a
version names when it is made or reviewed, whether the subject may see them, and their
source issues at read time. The rules are :mod:`embornal.domain.narratives.claims`'s.

A claim the subject may not see is "no claim with id", as an id never used, at narrate
time; at read time a version naming one is not visible at all (decision 0087), so no
claim leaks through a narrative.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.claims.ledger import ClaimState, fold, stream_of
from embornal.domain.narratives.accounts import INSUFFICIENT, MISSING
from embornal.domain.narratives.claims import (
    CLAIM_NOT_ADOPTED,
    CLAIM_REVIEW_REQUIRED,
    CLAIM_SUPERSEDED,
    CLAIM_WITHDRAWN,
    claim_issues,
    current_claim_issue,
)
from embornal.errors import NotFound, ProtocolViolation
from embornal.service.claims import views as views
from embornal.service.context import ServiceContext
from embornal.service.narratives.results import SourceIssue

__all__ = ["check_claims", "claim_fix", "claim_source_issues", "claims_visible", "resolve_claims"]


def resolve_claims(ctx: ServiceContext, claim_ids: Sequence[str]) -> tuple[str, ...]:
    """Each claim's full id (a unique prefix resolves), the subject's to see (else "no
    claim with id", as one never used)."""
    return tuple(dict.fromkeys(views.find(ctx, c).claim_id for c in claim_ids))


def _eligible(ctx: ServiceContext, state: ClaimState) -> bool:
    facts = views.visible_facts(ctx, state, state.cited())
    return facts is not None and views.record_of(ctx, state, facts).eligible_for_recall


def claim_fix(ref: str, code: str, replaced_by: str | None = None) -> str:
    """The call that resolves a claim dependency's issue."""
    if code == CLAIM_NOT_ADOPTED:
        return f'adopt_claim(claim_id="{ref}", reason="...")'
    if code == CLAIM_REVIEW_REQUIRED:
        return (
            f'inspect_claim(claim_id="{ref}"), resolve its evidence, then '
            f'adopt_claim(claim_id="{ref}", reason="...")'
        )
    if code == CLAIM_SUPERSEDED:
        other = f'"{replaced_by}"' if replaced_by else "its replacement (inspect_claim names it)"
        return f"narrate(content, reason, claim_ids=[{other}, ...]) on the replacement"
    if code == INSUFFICIENT:
        return (
            f'add_evidence(claim_id="{ref}", source="...") from each actual independent '
            "origin (never invent a label)"
        )
    return "narrate(content, reason, ...) without it"


_WHAT = {
    CLAIM_WITHDRAWN: "is withdrawn",
    CLAIM_SUPERSEDED: "is superseded by another claim",
    CLAIM_NOT_ADOPTED: "is proposed, not adopted (a narrative rests on adopted judgments)",
    CLAIM_REVIEW_REQUIRED: "needs review (its evidence or material changed since adoption)",
    INSUFFICIENT: "is not supported by independent origins (a sensitive synthesis needs them)",
}


def check_claims(ctx: ServiceContext, claim_ids: Sequence[str], sensitive: bool) -> dict[str, int]:
    """The stream version of each claim, once none has an issue now (else the refusal
    naming the call that resolves the first)."""
    out: dict[str, int] = {}
    for claim_id in claim_ids:
        state = views.find(ctx, claim_id)
        code = current_claim_issue(state, eligible=_eligible(ctx, state))
        if code is None and sensitive:
            origins = {k: v.source for k, v in views.material_of(ctx, state).items()}
            code = None if state.origin_groups(origins).satisfied else INSUFFICIENT
        if code == MISSING:  # pragma: no cover - find raised already
            raise NotFound(f"no claim with id {claim_id}")
        if code is not None:
            fix = claim_fix(state.claim_id, code, state.replaced_by)
            raise ProtocolViolation(
                f"claim {state.claim_id} {_WHAT[code]}: a narrative cannot depend on it",
                hint=f"Call {fix} first, or narrate(content, reason, ...) without it.",
            )
        out[state.claim_id] = state.version
    return out


def claims_visible(ctx: ServiceContext, claim_ids: Sequence[str]) -> bool:
    """Whether the subject may see every claim (decision 0083: all the memories each ever
    cited; a claim citing none, its owner alone)."""
    for claim_id in claim_ids:
        state = fold(ctx.store.read_stream(stream_of(claim_id)))
        if state is None or views.visible_facts(ctx, state, state.cited()) is None:
            return False
    return True


def claim_source_issues(
    ctx: ServiceContext, claim_ids: Sequence[str], checked: dict[str, int]
) -> list[SourceIssue]:
    """The issues of a version's claims (visible to the subject: the caller checked)."""
    out: list[SourceIssue] = []
    for claim_id in claim_ids:
        events = ctx.store.read_stream(stream_of(claim_id))
        state = fold(events)
        eligible = state is not None and _eligible(ctx, state)
        found = claim_issues(claim_id, events, checked.get(claim_id, 0), eligible=eligible)
        out += [SourceIssue(i.ref, i.issue, i.live, i.at) for i in found]
    return out
