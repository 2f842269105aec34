"""The canon and frames of the history protocol (docs/model.md, Canon and scopes, Frames;
decision 0078): enter and
leave a task scope's active canon, end a scope, list the canon and the scopes; set a
memory's frame and list the frames in use. The rules are :mod:`embornal.domain.history.canon`'s.

Every membership is an event of the memory's own stream, appended at the version loaded
(again on a concurrent write), so a forget racing a canonize is decided on what the other
left: either the forget lands first and the canonize is refused (restore first), or the
canonize lands first and the forget is refused (decanonize first). Ending a scope appends
one ``MemoryDecanonized`` to each member's stream, all in one transaction at the versions
read. A subject sees, and ends, only the memberships of memories it may read.
"""

from __future__ import annotations

from embornal.domain.access.rights import SCOPE_ENTRIES
from embornal.domain.events import Event
from embornal.domain.events.canon import MemoryDecanonized
from embornal.domain.facts.fact import check_reason
from embornal.domain.history.canon import (
    SOFT_CANON_LIMIT,
    canon_eligible,
    check_label,
    decide_canonize,
    decide_decanonize,
    decide_set_frame,
)
from embornal.errors import ConcurrencyError, GateRefusal, NotFound
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import MAX_ATTEMPTS, on_fact
from embornal.service.history.audited import record_refusal
from embornal.service.history.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse
from embornal.service.history.protocol import status
from embornal.service.history.results import MemoryStatus
from embornal.storage.contract.store import CanonRow, Tx

__all__ = [
    "active_scopes",
    "canonize",
    "decanonize",
    "end_scope",
    "list_canon",
    "list_frames",
    "set_frame",
]

_SCOPES_HINT = "Call active_scopes() (`embornal canon scopes`) to see the scopes in use."
_UNSUPPORTED = (
    "sensitive without the corroboration gate met: inspectable, but it takes no priority "
    "slot in recall; corroborate(memory_id, source) with actual independent sources"
)


def _entry(ctx: ServiceContext, row: CanonRow, warnings: tuple[str, ...] = ()) -> CanonEntry:
    eligible = True
    if row.sensitive:
        state = ctx.store.fact_state(row.fact.id)
        eligible = state is not None and canon_eligible(state)
    warned = () if eligible else (f"memory {row.fact.id} is {_UNSUPPORTED}",)
    return CanonEntry(
        row.fact, row.scope, row.reason, row.since, row.actor, eligible, (*warnings, *warned)
    )


def canonize(ctx: ServiceContext, fact_id: str, scope: str, *, reason: str) -> CanonEntry:
    """Put a consolidated, live memory in the active canon of ``scope`` (a sensitive one
    only with the corroboration gate met); past the soft limit it warns."""
    why = check_reason(reason)
    label = check_label(scope, "scope")
    assert label is not None
    fact = ctx.target("chronicle.canonize", fact_id)
    try:
        on_fact(ctx, fact.id, lambda s: decide_canonize(s, label), why, "canonizing a memory")
    except GateRefusal:  # the gate's refusal is recorded: canonize_denied (0142)
        record_refusal(ctx, fact.id, "canonize", why)
        raise
    rows = ctx.store.canon.canon_rows(ctx.scope())
    mine = [r for r in rows if r.fact.id == fact.id and r.scope == label]
    if not mine:  # pragma: no cover - appended just now
        raise NotFound(f"no canon entry of {fact.id} in {label!r}")
    warned: tuple[str, ...] = ()
    if len(rows) > SOFT_CANON_LIMIT:
        warned = (
            f"{len(rows)} active canon entries, past the soft limit of {SOFT_CANON_LIMIT}: "
            "the canon works as a focused set only while it stays small; end a scope or "
            "decanonize entries no longer relevant to the task",
        )
    return _entry(ctx, mine[0], warned)


def _removed(events: list[Event], why: str) -> CanonRemoval:
    bodies = [e.body for e in events if isinstance(e.body, MemoryDecanonized)]
    return CanonRemoval(
        tuple(dict.fromkeys(b.scope for b in bodies if b.scope is not None)),
        tuple(dict.fromkeys(b.fact_id for b in bodies)),
        len(bodies),
        why,
    )


def decanonize(
    ctx: ServiceContext, fact_id: str, scope: str | None = None, *, reason: str
) -> CanonRemoval:
    """Take a memory out of the active canon of ``scope`` (None: of every scope it is in);
    the memory itself is untouched."""
    why = check_reason(reason)
    assert why is not None
    label = check_label(scope, "scope", required=False)
    fact = ctx.target("chronicle.decanonize", fact_id)

    def then(tx: Tx, events: list[Event]) -> CanonRemoval:
        return _removed(events, why)

    done = on_fact(
        ctx,
        fact.id,
        lambda s: decide_decanonize(s, label),
        why,
        "decanonizing a memory",
        then,
    )
    assert done is not None
    return done


def end_scope(ctx: ServiceContext, scope: str, *, reason: str) -> CanonRemoval:
    """End a task scope: every membership of it (of memories the subject may read) leaves
    the active canon, in one transaction; the memories are untouched."""
    why = check_reason(reason)
    assert why is not None
    label = check_label(scope, "scope")
    assert label is not None
    rows = ctx.store.canon.canon_rows(ctx.scope(), canon_scope=label)
    if not rows:
        raise NotFound(f"no active canon in scope {label!r}", hint=_SCOPES_HINT)
    for r in rows:
        ctx.check("chronicle.end_scope", SCOPE_ENTRIES, r.fact)
    for _ in range(MAX_ATTEMPTS):
        new = []
        for r in rows:
            state = ctx.store.fact_state(r.fact.id)
            if state is None or state.history is None or label not in state.history.scopes:
                continue  # left the scope meanwhile
            body = MemoryDecanonized(r.fact.id, label, "end_scope")
            new.append(ctx.event(r.fact.id, body, why, state.version))
        if not new:
            raise NotFound(f"no active canon in scope {label!r}", hint=_SCOPES_HINT)
        try:
            return _removed(ctx.append("ending a canon scope", new), why)
        except ConcurrencyError:
            continue
    raise ConcurrencyError(
        f"the memories of scope {label!r} changed {MAX_ATTEMPTS} times while ending it; "
        "nothing was written",
        hint="Others are busy with these memories; list the canon again and retry.",
    )


def list_canon(ctx: ServiceContext, scope: str | None = None) -> list[CanonEntry]:
    """The active canon (of one scope), oldest entry first; a sensitive entry the gate
    does not support is listed with ``eligible_for_recall`` false."""
    label = check_label(scope, "scope", required=False)
    return [_entry(ctx, r) for r in ctx.store.canon.canon_rows(ctx.scope(), canon_scope=label)]


def active_scopes(ctx: ServiceContext) -> list[ScopeInUse]:
    """The canon scopes with active memberships, by name."""
    return [ScopeInUse(c.label, c.count) for c in ctx.store.canon.canon_scopes(ctx.scope())]


def set_frame(ctx: ServiceContext, fact_id: str, frame: str, *, reason: str) -> MemoryStatus:
    """Assign (or re-assign) a live memory's frame; a reason is required."""
    why = check_reason(reason)
    label = check_label(frame, "frame")
    assert label is not None
    fact = ctx.target("chronicle.set_frame", fact_id)
    on_fact(ctx, fact.id, lambda s: decide_set_frame(s, label), why, "framing a memory")
    return status(ctx, fact.id)


def list_frames(ctx: ServiceContext) -> list[FrameInUse]:
    """The frames of live memories the subject may read, by name, with their counts."""
    return [FrameInUse(c.label, c.count) for c in ctx.store.canon.frame_counts(ctx.scope())]
