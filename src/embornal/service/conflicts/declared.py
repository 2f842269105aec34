"""Conflicts a caller declares (docs/model.md, Conflicts; decision 0080): ``mark_conflict(a, b,
reason)`` opens a ``declared`` conflict of two live memories in the one conflict queue
(:mod:`.conflicts`, decision 0059), and ``list_conflicts(resolved?)`` lists that queue.

A declared conflict's id is derived from its class, its two members and, after the pair's
last declared conflict was resolved, that conflict's id (a chain): marking a pair whose
declared conflict is open returns that conflict ("marking the same pair twice is a
no-op"), two racing marks open it once (the second append finds the stream taken and
reads it), and a pair may be declared again once its conflict is settled.
"""

from __future__ import annotations

from embornal.domain.conflicts.aggregate import (
    ConflictClass,
    OpenConflict,
    conflict_id,
    decide_open,
    fold,
    stream_of,
)
from embornal.domain.facts.fact import Fact, check_reason
from embornal.errors import ConcurrencyError, Conflict, InvalidInput, ProtocolViolation
from embornal.service.conflicts.queue import conflict, conflicts
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import MAX_ATTEMPTS

__all__ = ["list_conflicts", "mark_conflict"]

_DECLARED = ConflictClass.DECLARED
_FINDING = ("declared by a caller",)
_MAX_CHAIN = 1000


def _live(ctx: ServiceContext, fact: Fact) -> None:
    if fact.state == "forgotten":
        raise ProtocolViolation(
            f"memory {fact.id} is forgotten: conflicts describe live framed versions, not "
            "tombstoned ones",
            hint="Restore it first: restore(memory_id, reason) (`embornal memory restore ID "
            "--reason '...'`), then mark the conflict.",
        )
    if fact.state != "active":
        raise Conflict(
            f"fact {fact.id} is {fact.state}: only live memories are set against each other",
            hint="Mark the conflict with the fact that replaced it.",
        )


def mark_conflict(ctx: ServiceContext, a: str, b: str, *, reason: str) -> ConflictRecord:
    """Declare two live memories conflicting versions (neither is changed or deleted):
    a ``declared`` conflict in the shared queue, or the one of the pair already open."""
    why = check_reason(reason)
    first, second = (
        ctx.target("chronicle.mark_conflict", a, "a"),
        ctx.target("chronicle.mark_conflict", b, "b"),
    )
    if first.id == second.id:
        raise InvalidInput(
            "a memory cannot conflict with itself: name two different memories",
            hint="Call mark_conflict(a, b, reason) with the ids of the two versions.",
        )
    for fact in (first, second):
        _live(ctx, fact)
    members = (first.id, second.id)
    for _ in range(MAX_ATTEMPTS):
        trigger = ""
        for _link in range(_MAX_CHAIN):
            cid = conflict_id(_DECLARED.value, members, trigger)
            state = fold(ctx.store.read_stream(stream_of(cid)))
            if state is None or state.is_open:
                break
            trigger = cid  # settled: a new declaration chains on from it
        if state is not None:
            return conflict(ctx, cid)
        command = OpenConflict(_DECLARED, members, _FINDING, 1.0, "mark", trigger)
        (body,) = decide_open(None, command)
        try:
            ctx.append("marking a conflict", [ctx.event(stream_of(cid), body, why, 0)])
        except ConcurrencyError:
            continue  # marked meanwhile: read it again
        return conflict(ctx, cid)
    raise ConcurrencyError(  # pragma: no cover - the second read finds the stream
        f"the conflict of {first.id} and {second.id} changed {MAX_ATTEMPTS} times",
        hint="List the conflicts (list_conflicts()) and retry.",
    )


def list_conflicts(
    ctx: ServiceContext, resolved: bool | None = None, *, limit: int | None = None
) -> list[ConflictRecord]:
    """The shared conflict queue, newest first: every conflict (``resolved`` None), the
    open ones (False) or the resolved ones (True)."""
    if resolved is not None and not isinstance(resolved, bool):
        raise InvalidInput(f"resolved must be true, false or left out (got {resolved!r})")
    chosen = "all" if resolved is None else "resolved" if resolved else "open"
    return conflicts(ctx, status=chosen, limit=limit)
