"""Narrative accounts (docs/model.md, Narratives; decisions 0085–0087): ``narrate``,
``review_narrative``, ``current_narrative``, ``narrative_history``, ``list_narratives``, and
:func:`usable_narrative` for the recall cascade. The rules are
:mod:`embornal.domain.narratives.accounts`'s.

Each write loads the account's stream, decides, and appends at its version (again on a
concurrent write). Dependencies are validated when a version is made or reviewed and the
stream version of each is recorded; whether a version is usable is computed when it is
read, from what those streams did since (decision 0086), so a forget, purge or
sensitivity flag invalidates it in the very append that records it.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.bounds import MAX_CONTENT_BYTES, MAX_NARRATIVE_SOURCES
from embornal.domain.events.narratives import NarrativeReviewed, NarrativeVersioned
from embornal.domain.facts.fact import check_reason
from embornal.domain.graph.rules import canonical, parse_relation
from embornal.domain.history.screening import screen
from embornal.domain.ids import new_id
from embornal.domain.narratives.accounts import (
    DEFAULT_PERSPECTIVE,
    INSUFFICIENT,
    Account,
    Version,
    account_stream,
    check_label,
    checked_pairs,
    current_issues,
    fold_account,
    format_link,
    narrative_scope,
    parse_link,
)
from embornal.errors import (
    ConcurrencyError,
    Conflict,
    InvalidInput,
    NotFound,
    ProtocolViolation,
)
from embornal.service.context import ServiceContext, check_limit
from embornal.service.history.audited import record_refusal
from embornal.service.narratives.claims import check_claims, resolve_claims
from embornal.service.narratives.fixes import refusal
from embornal.service.narratives.reads import (
    NARRATIVE_PATH,
    find_version,
    narrative_of,
    notice_of,
    visible,
)
from embornal.service.narratives.results import (
    Narrative,
    NarrativeView,
)

__all__ = [
    "NARRATIVE_PATH",
    "current_narrative",
    "list_narratives",
    "narrate",
    "narrative_history",
    "review_narrative",
    "usable_narrative",
]

_ATTEMPTS = 5
_SCAN = 1000


def _text(value: object, name: str, *, required: bool) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise InvalidInput(f"a narrative needs its {name}: the synthesis, as text")
        return None
    if not isinstance(value, str) or "\x00" in value:
        raise InvalidInput(f"{name} must be text without NUL")
    if len(value.encode("utf-8", "replace")) > MAX_CONTENT_BYTES:
        raise InvalidInput(f"{name} must be at most {MAX_CONTENT_BYTES} bytes")
    return value.strip()


def _ids(value: object, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{name} must be a list of ids")
    if len(value) > MAX_NARRATIVE_SOURCES:
        raise InvalidInput(f"{name} may name at most {MAX_NARRATIVE_SOURCES} ids")
    return tuple(dict.fromkeys(v.strip() for v in value if v.strip()))


def _link(ctx: ServiceContext, text: str) -> tuple[str, str, str]:
    """A link id's ends resolved (readable by the subject), in its stored direction."""
    source, relation, target = parse_link(text)
    rel = parse_relation(relation)
    a, b = canonical(ctx.resolve(source).id, rel, ctx.resolve(target).id)
    state = ctx.store.fact_state(a)
    if state is None or (rel.value, b) not in state.links:
        raise NotFound(
            f"no link {format_link(a, rel.value, b)}",
            hint="List a memory's links with memory_links(memory_id) and name one of them, "
            "or narrate without it.",
        )
    return a, rel.value, b


def _checked(
    ctx: ServiceContext, fact_ids: Sequence[str], sensitive: bool, reason: str | None = None
) -> dict[str, int]:
    """The stream version of each dependency, once none has a source issue now (else the
    refusal naming the call that resolves the first; ``reason``: a narrate's, whose
    refusal by the corroboration gate is recorded, decision 0142)."""
    now = ctx.now()
    out: dict[str, int] = {}
    for fact_id in fact_ids:
        state = ctx.store.fact_state(fact_id)
        codes = current_issues(state, now, require_gate=sensitive)
        if codes:
            if reason is not None and codes[0] == INSUFFICIENT:
                record_refusal(ctx, fact_id, "narrate", reason, require_gate=sensitive)
            raise refusal(fact_id, codes[0], sensitive)
        assert state is not None
        out[fact_id] = state.version
    return out


def narrate(
    ctx: ServiceContext,
    content: str,
    *,
    reason: str,
    memory_ids: Sequence[str] | None = None,
    claim_ids: Sequence[str] | None = None,
    link_ids: Sequence[str] | None = None,
    scope: str | None = None,
    perspective: str | None = None,
    coverage: str | None = None,
    security_sensitive: bool = False,
) -> Narrative:
    """A new version of the account of ``scope`` from ``perspective``, its dependencies
    validated now: each memory live and readable, an interpretation not overdue, a
    sensitive one only with the corroboration gate met; each claim visible, adopted and
    current (decision 0098); a sensitive synthesis needs dependencies, each supported."""
    why = check_reason(reason)
    text = _text(content, "content", required=True)
    cover = _text(coverage, "coverage", required=False)
    sc = narrative_scope(scope)
    pe = check_label(perspective, "perspective", DEFAULT_PERSPECTIVE)
    memories = tuple(
        dict.fromkeys(
            ctx.target("chronicle.narrate", m, "memory_ids").id
            for m in _ids(memory_ids, "memory_ids")
        )
    )
    claims = resolve_claims(ctx, _ids(claim_ids, "claim_ids"))
    links = tuple(dict.fromkeys(_link(ctx, t) for t in _ids(link_ids, "link_ids")))
    ctx.check_ledger("chronicle.narrate", NARRATIVE_PATH)
    assert text is not None
    found = screen(text)
    sensitive = bool(security_sensitive) or found.flagged
    facts = list(memories)
    for a, _, b in links:
        facts += [a, b]
    facts = list(dict.fromkeys(facts))
    if sensitive and not facts and not claims:
        raise ProtocolViolation(
            "a security-sensitive synthesis needs nonempty, supported links: it names no "
            "memory or link",
            hint="Call narrate(content, reason, memory_ids=[...]) naming the corroborated "
            "memories it rests on.",
        )
    checked = _checked(ctx, facts, sensitive, why) | check_claims(ctx, claims, sensitive)
    stream = account_stream(sc, pe)
    for _ in range(_ATTEMPTS):
        account = fold_account(ctx.store.read_stream(stream))
        body = NarrativeVersioned(
            new_id(ctx.now()),
            sc,
            pe,
            text,
            cover,
            sensitive,
            found.matches,
            memories,
            tuple(format_link(*k) for k in links),
            claims,
            checked_pairs(checked),
            account.current.narrative_id if account is not None else None,
        )
        try:
            ctx.append(
                "narrating", [ctx.event(stream, body, why, account.version if account else 0)]
            )
        except ConcurrencyError:
            continue
        done = fold_account(ctx.store.read_stream(stream))
        assert done is not None
        version = done.find(body.narrative_id)
        assert version is not None
        return narrative_of(ctx, done, version, warn=True)
    raise ConcurrencyError(
        f"the account of scope {sc!r} changed {_ATTEMPTS} times while narrating",
        hint="Other writers are busy with this account; read it again and retry.",
    )


def review_narrative(ctx: ServiceContext, narrative_id: str, *, note: str) -> Narrative:
    """Approve the current version again once none of its dependencies has a source issue
    (the note says what was compared); its text is not rewritten."""
    if not isinstance(note, str) or not note.strip():
        raise InvalidInput("a narrative review needs a note: what was compared with the sources")
    why = check_reason(note)
    account, version = find_version(ctx, narrative_id)
    if version is not account.current:  # a stale read, not a refused step (decision 0142)
        raise Conflict(
            f"narrative {version.narrative_id} has been replaced: only the current version "
            "of an account is reviewed",
            hint=f"Call current_narrative(scope={account.scope!r}) and review that one, or "
            "narrate a replacement.",
        )
    for fact in ctx.store.get_facts(list(version.fact_ids()), ctx.scope()):
        ctx.check("chronicle.review_narrative", "the narrative's memories", fact)
    ctx.check_ledger("chronicle.review_narrative", NARRATIVE_PATH)
    for _ in range(_ATTEMPTS):
        try:
            checked = _checked(ctx, version.fact_ids(), version.sensitive) | check_claims(
                ctx, version.claim_ids, version.sensitive
            )
        except ProtocolViolation as early:  # the account's state, not a refused rule (0157)
            raise Conflict(early.message, hint=early.hint) from None
        body = NarrativeReviewed(version.narrative_id, why, checked_pairs(checked))
        try:
            ctx.append(
                "reviewing a narrative", [ctx.event(account.stream_id, body, why, account.version)]
            )
        except ConcurrencyError:
            account, version = find_version(ctx, narrative_id)
            continue
        account, version = find_version(ctx, narrative_id)
        return narrative_of(ctx, account, version)
    raise ConcurrencyError(
        f"narrative {narrative_id} changed {_ATTEMPTS} times while being reviewed",
        hint="Read it again and retry.",
    )


def current_narrative(
    ctx: ServiceContext, *, scope: str | None = None, perspective: str | None = None
) -> NarrativeView:
    """The account of ``scope`` (the most recently versioned of its perspectives, unless
    one is named): its current version when usable, else its review notice and, for this
    deliberate inspection, the unusable version itself (decision 0157)."""
    sc = narrative_scope(scope)
    pe = (
        None
        if perspective is None
        else check_label(perspective, "perspective", DEFAULT_PERSPECTIVE)
    )
    for row in ctx.store.narratives.narrative_accounts(scope=sc, limit=_SCAN):
        if pe is not None and row.perspective != pe:
            continue
        account = fold_account(ctx.store.read_stream(row.stream_id))
        if account is None or not visible(ctx, account.current):
            continue
        current = narrative_of(ctx, account, account.current)
        if current.usable:
            return NarrativeView(sc, current)
        return NarrativeView(sc, None, notice_of(current), current)
    return NarrativeView(sc)


def usable_narrative(ctx: ServiceContext, scope: str | None = None) -> NarrativeView:
    """What the recall cascade shows of a scope's account: the usable narrative, or its
    review notice (never the stale text), or neither."""
    view = current_narrative(ctx, scope=scope)
    return NarrativeView(view.scope, view.narrative, view.narrative_review)


def narrative_history(
    ctx: ServiceContext, *, limit: int | None = None, scope: str | None = None
) -> list[Narrative]:
    """Every version of the accounts (of ``scope``, or all) the subject may see, the newest
    first, with its text for deliberate inspection, stale or replaced ones too."""
    n = check_limit(limit, ctx.default_limit)
    sc = None if scope is None else narrative_scope(scope)
    found: list[tuple[int, Account, Version]] = []
    for row in ctx.store.narratives.narrative_accounts(scope=sc, limit=_SCAN):
        account = fold_account(ctx.store.read_stream(row.stream_id))
        if account is not None:
            found += [(v.position, account, v) for v in account.versions if visible(ctx, v)]
    found.sort(key=lambda f: f[0], reverse=True)
    return [narrative_of(ctx, a, v) for _, a, v in found[:n]]


def list_narratives(ctx: ServiceContext, *, limit: int | None = None) -> list[Narrative]:
    """The accounts the subject may see, the most recently versioned first: each current
    version, its text withheld when it is not usable."""
    n = check_limit(limit, ctx.default_limit)
    out: list[Narrative] = []
    for row in ctx.store.narratives.narrative_accounts(limit=_SCAN):
        account = fold_account(ctx.store.read_stream(row.stream_id))
        if account is None or not visible(ctx, account.current):
            continue
        v = narrative_of(ctx, account, account.current)
        if not v.usable:
            from dataclasses import replace

            v = replace(v, content=None, coverage=None, withheld=True)
        out.append(v)
        if len(out) == n:
            break
    return out
