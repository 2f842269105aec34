"""The conflict queue (docs/model.md, Conflicts): list, show, resolve, scan (decisions
0058–0060).

A conflict is shown only to a subject who may read every one of its members; to anyone
else it does not exist (the same "no conflict" as for an id never used). Resolving one
is the only way it closes — it never resolves itself: ``keep`` confirms the kept member
and forgets every other active member, ``merge`` merges every other active member into
it (decision 0054), ``both`` lets all stand; each is one
transaction with the conflict's ``ConflictResolved`` (appended at the versions read,
again on a concurrent write) and needs a reason. Keep takes write on the kept fact and
delete on each one it forgets; merge the rights of an update on the survivor and
delete on the others; both takes write on every member.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from embornal.domain.access.rights import SCANNED
from embornal.domain.conflicts.aggregate import (
    ID_PREFIX,
    ConflictClass,
    ConflictState,
    OpenConflict,
    Outcome,
    ResolveConflict,
    decide_resolve,
    fold,
    stream_of,
)
from embornal.domain.events import DomainEvent, NewEvent
from embornal.domain.facts.aggregate import FactState, ForgetFact, decide_forget
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.ids import normalize_prefix
from embornal.domain.spine.decisions import ConfirmFact, decide_confirm
from embornal.errors import AmbiguousId, ConcurrencyError, Conflict, InvalidInput, NotFound
from embornal.service.conflicts.detect import judge, open_all
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.lifecycle import MAX_ATTEMPTS
from embornal.service.graph.merge import merge_events

__all__ = ["STATUSES", "conflict", "conflicts", "resolve_conflict", "scan_conflicts"]

STATUSES = ("open", "resolved", "all")
CLASSES = tuple(c.value for c in ConflictClass)
_LIST_HINT = "`embornal conflict list` shows the open conflicts and their ids."
_GROUP_LARGEST = 50
_DECL = ConflictClass.DECLARED.value
_CONFLICT_ID = re.compile(ID_PREFIX + "[0-9A-F]{1,15}")


def _record(state: ConflictState, members: Sequence[Fact]) -> ConflictRecord:
    return ConflictRecord(
        id=state.conflict_id,
        conflict_class=state.conflict_class.value,
        status="open" if state.is_open else "resolved",
        members=tuple(members),
        findings=state.findings,
        score=state.score,
        detected_by=state.detected_by,
        suggested_keep=state.suggested_keep,
        opened_at=state.opened_at,
        opened_by=state.opened_by,
        outcome=None if state.outcome is None else state.outcome.value,
        kept_id=state.kept_id,
        archived=state.archived,
        resolved_at=state.resolved_at,
        resolved_by=state.resolved_by,
        reason=state.reason,
        opened_reason=state.opened_reason,
    )


def _visible(ctx: ServiceContext, states: Sequence[ConflictState]) -> list[ConflictRecord]:
    """The conflicts whose every member the subject may read, with those members."""
    ids = sorted({m for s in states for m in s.members})
    facts = {f.id: f for f in ctx.store.get_facts(ids, ctx.scope())}
    return [
        _record(s, [facts[m] for m in s.members])
        for s in states
        if all(m in facts for m in s.members)
    ]


def _choice(value: str | None, allowed: Sequence[str], what: str) -> str | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    if text not in allowed:
        raise InvalidInput(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return text


def conflicts(
    ctx: ServiceContext,
    *,
    status: str | None = "open",
    conflict_class: str | None = None,
    fact_id: str | None = None,
    limit: int | None = None,
) -> list[ConflictRecord]:
    """The conflicts the subject may see, newest first: open ones by default."""
    chosen = _choice(status or "open", STATUSES, "status")
    cls = _choice(conflict_class, CLASSES, "class")
    n = check_limit(limit, max(ctx.default_limit, 20))
    member = None if fact_id is None else ctx.resolve(fact_id).id
    states = ctx.store.conflicts.conflict_states(
        status=None if chosen == "all" else chosen,
        conflict_class=cls,
        fact_id=member,
        limit=max(n * 4, 200),
    )
    return _visible(ctx, states)[:n]


def _find(ctx: ServiceContext, conflict_id: str) -> ConflictRecord:
    raw = str(conflict_id).strip()
    prefix = raw.upper()
    if not _CONFLICT_ID.fullmatch(prefix):
        raise InvalidInput(
            f"a conflict id is {ID_PREFIX} and up to 15 hexadecimal digits, e.g. "
            f"K3FDA30B5A0A0D19 (a unique prefix works), not {raw[:40]!r}",
            hint=_LIST_HINT,
        )
    found = _visible(ctx, ctx.store.conflicts.conflict_states(prefix=prefix, limit=50))
    if not found:
        raise NotFound(f"no conflict with id {prefix}", hint=_LIST_HINT)
    exact = [r for r in found if r.id == prefix]
    if len(found) > 1 and not exact:
        raise AmbiguousId(f"conflict id prefix {prefix} matches more than one conflict")
    return exact[0] if exact else found[0]


def conflict(ctx: ServiceContext, conflict_id: str) -> ConflictRecord:
    """One conflict (an id or a unique prefix), with its members side by side."""
    return _find(ctx, conflict_id)


def _member(record: ConflictRecord, keep: str, flag: str = "--keep") -> str:
    prefix = normalize_prefix(str(keep).strip())
    chosen = [m.id for m in record.members if m.id.startswith(prefix)] if prefix else []
    if len(chosen) > 1:
        raise AmbiguousId(f"{flag} {prefix} matches more than one of the conflict's facts")
    if len(chosen) != 1:
        names = ", ".join(m.id for m in record.members)
        raise InvalidInput(
            f"{flag} must name one of the conflict's facts: {names}",
            hint=f"`embornal conflict show {record.id}` lists them.",
        )
    return chosen[0]


def _decided(
    ctx: ServiceContext,
    record: ConflictRecord,
    outcome: Outcome,
    kept: str | None,
    why: str | None,
) -> list[NewEvent]:
    """The events of the decision, on the state read now (each at the version read)."""
    facts: dict[str, FactState] = {}
    for m in record.members:  # the facts first: a decision made meanwhile shows below
        st = ctx.store.fact_state(m.id)
        if st is not None:
            facts[m.id] = st
    state = fold(ctx.store.read_stream(stream_of(record.id)))
    if state is None:  # pragma: no cover - the projection named it
        raise NotFound(f"no conflict with id {record.id}", hint=_LIST_HINT)
    active = frozenset(m for m, st in facts.items() if st.state == "active")
    bodies = decide_resolve(state, ResolveConflict(record.id, outcome, kept, active))
    now = ctx.now()
    out = [ctx.event(stream_of(record.id), bodies[0], why, state.version)]
    if outcome is Outcome.KEEP:
        assert kept is not None
        if kept not in active:
            raise Conflict(
                f"fact {kept} is not active: it cannot be kept",
                hint="Restore it first (`embornal memory restore`), or keep another.",
            )
        confirm: list[DomainEvent] = decide_confirm(facts[kept], ConfirmFact(kept), now)
        out.append(ctx.event(kept, confirm[0], why, facts[kept].version))
        for m in bodies[0].archived:  # type: ignore[attr-defined]
            forgot = decide_forget(facts[m], ForgetFact(m), now)
            out.append(ctx.event(m, forgot[0], why, facts[m].version))
    if outcome is Outcome.MERGE:
        assert kept is not None
        survivor = facts.get(kept)
        if survivor is None or kept not in active:
            raise Conflict(
                f"fact {kept} is not active: nothing can merge into it",
                hint="Restore it first (`embornal memory restore`).",
            )
        for m in bodies[0].archived:  # type: ignore[attr-defined]
            merged, survivor = merge_events(ctx, survivor, facts[m], why)
            out += merged
    return out


def resolve_conflict(
    ctx: ServiceContext,
    conflict_id: str,
    *,
    keep: str | None = None,
    both: bool = False,
    merge: str | None = None,
    reason: str,
) -> ConflictRecord:
    """Decide a conflict: ``keep`` one member (confirmed; the other active members are
    forgotten), ``merge`` the other active members into one (their aliases and evidence
    absorbed, each forgotten with a ``supersedes`` link from it: decision 0054), or
    ``both`` (all stand; also when none is given, as memory-as-history's ``resolve_conflict``
    without ``adopted_memory_id``), with a reason; once, in one transaction. Keeping a
    member of a ``declared`` conflict forgets nothing (decision 0080)."""
    why = check_reason(reason)
    if [keep is not None, merge is not None, bool(both)].count(True) > 1:
        raise InvalidInput(
            "resolve a conflict with one of --keep ID, --merge ID or --both (none: both)",
            hint="--keep ID keeps that fact and forgets the others; --merge ID merges the "
            "others into it; --both lets all stand.",
        )
    record = _find(ctx, conflict_id)
    named = keep if keep is not None else merge
    kept = (
        None if named is None else _member(record, named, "--keep" if merge is None else "--merge")
    )
    for m in record.members:
        if merge is not None and m.id == kept:  # its attributes change, as an update's
            ctx.require_to_rewrite(m, "a merge changes the survivor's attributes")
        elif kept is None or m.id == kept or (merge is None and record.conflict_class == _DECL):
            ctx.check("resolve_conflict", "the conflict's memories", m)  # declared: forgets none
        else:
            ctx.check("resolve_conflict", "a memory the resolution archives", m)
    outcome = Outcome.BOTH if kept is None else Outcome.KEEP if merge is None else Outcome.MERGE
    for _ in range(MAX_ATTEMPTS):
        events = _decided(ctx, record, outcome, kept, why)
        try:
            ctx.append("resolving a conflict", events)
        except ConcurrencyError:
            continue
        return _find(ctx, record.id)
    raise ConcurrencyError(
        f"conflict {record.id} or its facts changed {MAX_ATTEMPTS} times while resolving it; "
        "nothing was written",
        hint="Others are busy with these facts; show the conflict again and retry.",
    )


def _in_rights(ctx: ServiceContext, found: list[OpenConflict]) -> list[OpenConflict]:
    """The conflicts whose every member the subject may read and write."""
    if ctx.access.unconditional("read") and ctx.access.unconditional("write"):
        return found
    ids = sorted({m for c in found for m in c.members})
    facts = ctx.store.get_facts(ids, ctx.scope())
    allowed = {f.id for f in facts if ctx.may("scan_conflicts", SCANNED, f)}
    return [c for c in found if all(m in allowed for m in c.members)]


def _entity_conflicts(ctx: ServiceContext) -> list[OpenConflict]:
    found: dict[tuple[str, ...], OpenConflict] = {}
    groups = ctx.store.conflicts.entity_groups(_GROUP_LARGEST)
    ids = sorted({i for g in groups for i in g})
    facts = {f.id: f for f in ctx.store.get_facts(ids)}
    for group in groups:
        members = [facts[i] for i in group if i in facts]
        for x, a in enumerate(members):
            for b in members[x + 1 :]:
                pair = tuple(sorted((a.id, b.id)))
                if pair not in found and (made := judge(a, b)) is not None:
                    found[pair] = made
    return list(found.values())


def _text_conflicts(ctx: ServiceContext) -> list[OpenConflict]:
    from embornal.domain.conflicts.resolution import TEXT_THRESHOLD, text_signature, text_similarity
    from embornal.domain.recall.text import index_terms

    terms: dict[str, frozenset[str]] = {}
    kinds: dict[str, str] = {}
    buckets: dict[tuple[str, int], list[str]] = {}
    for fact_id, kind, content in ctx.store.conflicts.fact_texts():
        if kind in ("person", "organization", "location", "asset", "preference"):
            continue  # compared by their attributes
        t = terms[fact_id] = frozenset(index_terms(content))
        kinds[fact_id] = kind
        for band in text_signature(t):
            buckets.setdefault((kind, band), []).append(fact_id)
    found: dict[tuple[str, str], OpenConflict] = {}
    for ids in buckets.values():
        if len(ids) < 2 or len(ids) > _GROUP_LARGEST:
            continue
        for x, a in enumerate(ids):
            for b in ids[x + 1 :]:
                if (a, b) in found:
                    continue
                sim = text_similarity(terms[a], terms[b])
                if sim >= TEXT_THRESHOLD:
                    finding = ("near-duplicate text (keywords)",)
                    found[(a, b)] = OpenConflict(
                        ConflictClass.DUPLICATE, (a, b), finding, sim, "", "", a
                    )
    return list(found.values())


def _stale_conflicts(ctx: ServiceContext) -> list[OpenConflict]:
    from embornal.domain.bounds import MAX_LIMIT
    from embornal.domain.clock import format_time
    from embornal.service.spine.importance import due

    why = ("confidence decayed below the kind's threshold",)
    return [
        OpenConflict(
            ConflictClass.STALE,
            (d.fact.id,),
            why,
            round(1.0 - d.c_eff, 3),
            "",
            format_time(d.since),
            d.fact.id,
        )
        for d in due(ctx, limit=MAX_LIMIT)
    ]


def scan_conflicts(ctx: ServiceContext, *, stale: bool = True) -> list[ConflictRecord]:
    """Look for conflicts over the whole memory (entities and preferences sharing a key,
    near-duplicate texts, and with ``stale`` the stale facts) and open each one not
    opened before; return those opened now that the subject may see. Only conflicts
    between facts the subject may read and write are opened (decision 0128), and a
    subject that may write nothing is refused before the scan."""
    ctx.require_some("write", "scan_conflicts opens conflicts")
    found = [*_entity_conflicts(ctx), *_text_conflicts(ctx)]
    if stale:
        found.extend(_stale_conflicts(ctx))
    found = _in_rights(ctx, found)
    if not found:
        return []
    with ctx.store.transaction("scanning for conflicts") as tx:
        events = open_all(ctx, tx, found, "scan")
    opened = [e.body.conflict_id for e in events]  # type: ignore[attr-defined]
    return _visible(ctx, ctx.store.conflicts.conflict_states(ids=opened, limit=max(len(opened), 1)))
