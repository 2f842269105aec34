"""Proposals: draft items a person approves or rejects (decision 0055).

``propose`` checks the items (each as its own command would be checked, on the targets'
states now) and opens the proposal; nothing of it reaches a projection of facts.
``approve`` applies the chosen items in ONE transaction with the approval: the
approval's event at the proposal's loaded version, each fact event at its stream's, so
two approvals racing leave one (the other finds it approved), and an item that no
longer applies stops the whole approval with nothing written. A configured policy may
approve on arrival (:class:`~embornal.domain.proposals.policy.ProposalPolicy`); an
assistant decides only when the policy lets assistants decide.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from embornal.domain.bounds import MAX_PROPOSAL_ITEMS
from embornal.domain.clock import parse_time
from embornal.domain.events import ActorKind
from embornal.domain.facts.fact import check_reason
from embornal.domain.ids import new_id, normalize_prefix
from embornal.domain.proposals.aggregate import (
    ApproveProposal,
    EditProposal,
    OpenProposal,
    ProposalState,
    decide_approve,
    decide_edit,
    decide_open,
    decide_reject,
    fold,
    stream_of,
    target_of,
)
from embornal.errors import (
    AccessDenied,
    ConcurrencyError,
    Conflict,
    InvalidInput,
    ProposalChanged,
)
from embornal.service.context import ServiceContext, check_limit, single_match, visible_matches
from embornal.service.facts.lifecycle import MAX_ATTEMPTS
from embornal.service.proposals.items import load, plan
from embornal.service.proposals.results import Proposal, ProposalItem, ProposalSummary

__all__ = ["approve", "edit", "list_proposals", "may_decide", "propose", "reject", "show"]

STATUSES = ("open", "approved", "rejected")


def _make_id(ctx: ServiceContext) -> Any:
    return lambda: new_id(ctx.now())


def _resolve(ctx: ServiceContext, proposal_id: str) -> ProposalState:
    """The proposal of an id or unique prefix among those the subject may see (the same
    :class:`NotFound` for an absent and a hidden one; a prefix is never ambiguous by the
    hidden ones)."""
    if not isinstance(proposal_id, str) or not proposal_id.strip():
        raise InvalidInput("a proposal id is required")
    prefix = normalize_prefix(proposal_id)
    states: dict[str, ProposalState] = {}

    def seen(found: str) -> bool:
        state = _load(ctx, found)
        if state is None or not _visible(ctx, state):
            return False
        states[found] = state
        return True

    ids = visible_matches(
        lambda after, n: ctx.store.proposals.proposal_ids(prefix, after=after, limit=n), seen
    )
    hint = "`embornal proposal list` shows the proposals you may see."
    return states[single_match(ids, "proposal", prefix, proposal_id, hint)]


def _load(ctx: ServiceContext, proposal_id: str) -> ProposalState | None:
    return fold(ctx.store.read_stream(stream_of(proposal_id)))


def _visible(ctx: ServiceContext, state: ProposalState) -> bool:
    """Its proposer sees it; another subject only when it may read every fact it acts on
    and every fact it would write (as its proposer's, at its path with its tags; a draft
    with a visibility of its own is its proposer's alone)."""
    if state.proposer == ctx.subject:
        return True
    targets = state.targets()
    if len(ctx.store.get_facts(targets, ctx.scope())) != len(set(targets)):
        return False
    for item in state.items.values():
        if "path" not in item and item["type"] != "supersede":
            continue
        if item.get("visibility") not in (None, "shared"):
            return False
        if ctx.access.unconditional("read"):
            continue
        path = item.get("path") or ctx.store.get_facts([str(item["fact_id"])])[0].path
        tags = item.get("tags")
        own = dict(t.split("=", 1) for t in tags if "=" in t) if isinstance(tags, list) else {}
        own = dict(tags) if isinstance(tags, Mapping) else own
        obj = ctx.access.new_fact_object(str(path), own, owner=state.proposer)
        if not ctx.access.decide(ctx.subject, "read", obj).allowed:
            return False
    return True


def _view(state: ProposalState) -> Proposal:
    decided = state.status.value != "open"
    items = tuple(
        ProposalItem(
            n,
            str(item["type"]),
            target_of(item) or item.get("new_id"),
            {k: v for k, v in item.items() if k != "type"},
            (n in state.applied) if decided else None,
        )
        for n, item in sorted(state.items.items(), key=lambda kv: int(kv[0]))
    )
    return Proposal(
        state.proposal_id,
        state.status.value,
        state.version,
        state.title,
        state.source,
        state.proposer,
        state.opened_at,
        state.decided_by,
        state.decided_at,
        state.reason,
        items,
    )


# -- the use cases ----------------------------------------------------------------------------


def propose(
    ctx: ServiceContext,
    items: Sequence[Mapping[str, Any]],
    *,
    title: str | None,
    source: str | None,
    reason: str | None,
) -> Proposal:
    """Open a proposal of ``items`` (each checked now as its approval would check it);
    approved at once when the configured policy says so."""
    why = check_reason(reason, required=False)
    pid = new_id(ctx.now())
    (opened,) = decide_open(OpenProposal(pid, items, title, source), _make_id(ctx))
    assert opened.items is not None
    state = ProposalState(pid, 0, dict(opened.items), title, source, ctx.subject)
    chosen = sorted(state.items, key=int)
    loaded = load(ctx, state, chosen)
    # A dry run refuses a bad item; the rights to apply it are the approver's.
    planned = plan(ctx, state, chosen, loaded, why, check_access=False)
    ctx.append("opening a proposal", [ctx.event(stream_of(pid), opened, why, 0)])
    kinds = [b.kind for b in planned.stored] + loaded.kinds()
    rule = ctx.proposals.auto_rule(opened.source, kinds)
    if rule is not None:
        try:
            return _approve(ctx, pid, None, why, rule)
        except (AccessDenied, Conflict):  # the proposer may not apply it: a person decides
            pass
    return show(ctx, pid)


def list_proposals(
    ctx: ServiceContext, *, status: str | None = None, limit: int | None = None
) -> list[ProposalSummary]:
    """The proposals the subject may see, newest first (``status``: open, approved,
    rejected; None: all)."""
    if status is not None and status not in STATUSES:
        raise InvalidInput(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    rows = ctx.store.proposals.proposal_rows(status=status, limit=check_limit(limit, 50))
    out = []
    for r in rows:
        state = _load(ctx, r.proposal_id)
        if state is None or not _visible(ctx, state):
            continue
        out.append(
            ProposalSummary(
                r.proposal_id,
                r.status,
                r.title,
                r.source,
                r.proposer,
                parse_time(r.opened_at),
                r.item_count,
                r.decided_by,
                None if r.decided_at is None else parse_time(r.decided_at),
                r.applied_count,
            )
        )
    return out


def show(ctx: ServiceContext, proposal_id: str) -> Proposal:
    return _view(_resolve(ctx, proposal_id))


def may_decide(ctx: ServiceContext) -> bool:
    """Whether the subject may approve and reject: a person, or an assistant by policy."""
    return ctx.actor_kind is not ActorKind.ASSISTANT or ctx.proposals.assistants_decide


def _require_decider(ctx: ServiceContext, doing: str) -> None:
    if not may_decide(ctx):
        raise AccessDenied(
            f"an assistant may not {doing} a proposal: a person decides",
            hint="Ask the user to review it: `embornal proposal show ID`, then "
            "`embornal proposal approve ID` or `reject ID --reason ...` (or let assistants "
            "decide: proposals.assistants_decide in config.yaml).",
        )


def approve(
    ctx: ServiceContext,
    proposal_id: str,
    *,
    items: Sequence[str] | None = None,
    reason: str | None = None,
    version: int | None = None,
) -> Proposal:
    """Apply the chosen items (all when none are named) and close the proposal; the
    others are declined. One transaction: all the items, or none. ``version``: the one
    the approver was shown (``Proposal.version``); when the proposal was edited since,
    :class:`ProposalChanged` and nothing is applied (None: the proposal as it is now)."""
    why = check_reason(reason, required=False)
    seen = _check_version(version)
    _check_count("items", items)
    _require_decider(ctx, "approve")
    state = _resolve(ctx, proposal_id)
    return _approve(ctx, state.proposal_id, items or None, why, ctx.subject, seen)


def _check_count(name: str, values: Collection[object] | None) -> None:
    """Refuse more item numbers or items than a proposal holds, before it is read."""
    if values is not None and len(values) > MAX_PROPOSAL_ITEMS:
        raise InvalidInput(
            f"{name} holds {len(values):,} items; at most {MAX_PROPOSAL_ITEMS:,} are allowed",
            hint=f"Send {name} with fewer items.",
        )


def _check_version(version: object) -> int | None:
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidInput(
            f"a proposal's version is a whole number from 1, not {str(version)[:20]!r}",
            hint="Give the version `embornal proposal show ID` prints.",
        )
    return version


def _approve(
    ctx: ServiceContext,
    pid: str,
    items: Sequence[str] | None,
    why: str | None,
    approver: str,
    version: int | None = None,
) -> Proposal:
    for _ in range(MAX_ATTEMPTS):
        state = _load(ctx, pid)
        assert state is not None
        (approved,) = decide_approve(state, ApproveProposal(approver, items, version))
        chosen = list(approved.items)
        loaded = load(ctx, state, chosen)
        planned = plan(ctx, state, chosen, loaded, why)
        stored = planned.stored
        vecs = ctx.semantic.embed_documents([b.content or "" for b in stored]) if stored else None
        try:
            with ctx.store.transaction("approving a proposal") as tx:
                for t in planned.read_only:  # no event checks its version: compare the state
                    if ctx.store.fact_state(t) != loaded.states[t]:
                        raise ConcurrencyError(f"fact {t} changed while approving")
                head = ctx.event(stream_of(pid), approved, why, state.version)
                ctx.store.append(tx, [head, *planned.events])
                if vecs is not None:
                    ctx.semantic.write(
                        tx, list(zip([b.fact_id for b in stored], vecs, strict=True))
                    )
            return show(ctx, pid)
        except ConcurrencyError:
            continue
    raise ConcurrencyError(
        f"proposal {pid} or its facts changed {MAX_ATTEMPTS} times while approving; "
        "nothing was written",
        hint="Read it again (`embornal proposal show`) and retry.",
    )


def reject(ctx: ServiceContext, proposal_id: str, *, reason: str) -> Proposal:
    """Close the proposal with nothing applied; the reason is required and kept."""
    why = check_reason(reason)
    _require_decider(ctx, "reject")
    state = _resolve(ctx, proposal_id)
    for _ in range(MAX_ATTEMPTS):
        (rejected,) = decide_reject(state)
        try:
            head = ctx.event(stream_of(state.proposal_id), rejected, why, state.version)
            ctx.append("rejecting a proposal", [head])
            return show(ctx, state.proposal_id)
        except ConcurrencyError:
            fresh = _load(ctx, state.proposal_id)
            assert fresh is not None
            state = fresh
    raise ConcurrencyError(f"proposal {state.proposal_id} kept changing; nothing was written")


def edit(
    ctx: ServiceContext,
    proposal_id: str,
    *,
    drop: Sequence[str] = (),
    add: Sequence[Mapping[str, Any]] = (),
    reason: str | None = None,
    replace: Mapping[str, Mapping[str, Any]] | None = None,
    version: int | None = None,
) -> Proposal:
    """Drop items (by number), replace some in place (by number) or add some to an open
    proposal; only its proposer, or a subject who may decide it, edits it. ``version``:
    the one the editor read (an edit of a proposal changed since is refused with
    :class:`ProposalChanged`, nothing edited; None: as it is now)."""
    why = check_reason(reason, required=False)
    version = _check_version(version)
    _check_count("drop", drop)
    _check_count("add", add)
    _check_count("replace", replace if isinstance(replace, Mapping) else None)
    state = _resolve(ctx, proposal_id)
    if state.proposer != ctx.subject:
        _require_decider(ctx, "edit")
    if version is not None and version != state.version:
        raise ProposalChanged(
            f"proposal {state.proposal_id} changed since version {version} (it is at "
            f"version {state.version} now); nothing was edited",
            hint="Read the proposal again, then edit it.",
        )
    if replace is not None and not isinstance(replace, Mapping):
        raise InvalidInput(
            "replace is an object of item number: item",
            hint='Give it as {"2": {"type": "create", "path": "/notes", "content": "..."}}.',
        )
    command = EditProposal(drop=list(drop), replace=dict(replace or {}), add=list(add))
    (edited,) = decide_edit(state, command, _make_id(ctx))
    new_items = {k: dict(v) for k, v in (edited.items or {}).items()}
    if new_items:  # a dry run of the proposal as edited (a new item may name an old one's)
        after = {k: v for k, v in state.items.items() if k not in edited.dropped}
        scratch = ProposalState(state.proposal_id, 0, {**after, **new_items})
        chosen = sorted(scratch.items, key=int)
        plan(ctx, scratch, chosen, load(ctx, scratch, chosen), why, check_access=False)
    ctx.append(
        "editing a proposal", [ctx.event(stream_of(state.proposal_id), edited, why, state.version)]
    )
    return show(ctx, state.proposal_id)
