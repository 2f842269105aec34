"""Reading a narrative version as a subject sees it (decisions 0086, 0087): whether it
may see it, its source issues now, and the result and review notice of it."""

from __future__ import annotations

from datetime import datetime

from embornal.domain.narratives.accounts import (
    UNLINKED_WARNING,
    Account,
    Version,
    fold_account,
    parse_link,
    source_issues,
)
from embornal.errors import InvalidInput, NotFound
from embornal.service.context import ServiceContext
from embornal.service.narratives.claims import claim_source_issues, claims_visible
from embornal.service.narratives.fixes import fix_hint
from embornal.service.narratives.results import Narrative, NarrativeReview, SourceIssue

__all__ = ["NARRATIVE_PATH", "find_version", "narrative_of", "notice_of", "visible"]

#: The path a narrative's rights are asked at, as of a fact its narrator stores there:
#: narrating and reviewing take ``write``; an unlinked version is visible to a subject
#: that may ``read`` it (decision 0087).
NARRATIVE_PATH = "/narratives"


def find_version(ctx: ServiceContext, narrative_id: str) -> tuple[Account, Version]:
    if not isinstance(narrative_id, str) or not narrative_id.strip():
        raise InvalidInput("a narrative id is required")
    row = ctx.store.narratives.narrative_row(narrative_id)
    account = fold_account(ctx.store.read_stream(row.stream_id)) if row is not None else None
    version = account.find(row.narrative_id) if account is not None and row is not None else None
    if account is None or version is None or not visible(ctx, version):
        raise NotFound(
            f"no narrative with id {narrative_id}",
            hint="List the accounts with list_narratives().",
        )
    return account, version


def visible(ctx: ServiceContext, version: Version) -> bool:
    """A version is visible to a subject that may read every fact it depends on and see
    every claim it names (decision 0098); an unlinked one to a subject that may read a
    fact its narrator would store at /narratives (the narrator, and whom the rules let
    read there; decision 0087)."""
    ids = version.fact_ids()
    if version.claim_ids and not claims_visible(ctx, version.claim_ids):
        return False
    if not ids:
        if version.claim_ids:  # each claim's material (or owner) decided it
            return True
        if ctx.access.unconditional("read"):
            return True
        obj = ctx.access.new_fact_object(NARRATIVE_PATH, {"owner": version.actor})
        return ctx.access.decide(ctx.subject, "read", obj).allowed
    return len(ctx.store.get_facts(list(ids), ctx.scope())) == len(ids)


def _issues(ctx: ServiceContext, version: Version, now: datetime) -> tuple[SourceIssue, ...]:
    links = [parse_link(k) for k in version.link_ids]
    out: list[SourceIssue] = []
    for fact_id in version.fact_ids():
        found = source_issues(
            fact_id,
            ctx.store.read_stream(fact_id),
            version.checked.get(fact_id, 0),
            now,
            require_gate=version.sensitive,
            links=[k for k in links if k[0] == fact_id],
        )
        out += [SourceIssue(i.ref, i.issue, i.live, i.at) for i in found]
    out += claim_source_issues(ctx, version.claim_ids, dict(version.checked))
    return tuple(out)


def narrative_of(
    ctx: ServiceContext, account: Account, version: Version, *, warn: bool = False
) -> Narrative:
    current = version is account.current
    issues = _issues(ctx, version, ctx.now()) if current else ()
    usable = current and not issues
    status = "superseded" if not current else ("current" if usable else "stale")
    warnings = (UNLINKED_WARNING,) if warn and not version.linked else ()
    return Narrative(
        version.narrative_id,
        version.scope,
        version.perspective,
        version.number,
        version.content,
        version.coverage,
        version.sensitive,
        version.memory_ids,
        version.link_ids,
        version.claim_ids,
        version.recorded_at,
        version.actor,
        version.reason,
        version.replaces,
        current,
        usable,
        status,
        "linked" if version.linked else "unlinked",
        issues,
        version.reviewed_at,
        version.review_note,
        version.content is None,
        warnings,
    )


def notice_of(n: Narrative) -> NarrativeReview:
    return NarrativeReview(
        n.narrative_id,
        n.scope,
        n.perspective,
        n.review_status,
        n.source_issues,
        fix_hint(n.narrative_id, n.source_issues),
    )
