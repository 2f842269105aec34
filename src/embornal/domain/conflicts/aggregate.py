"""The conflict aggregate (docs/model.md, Conflicts; decision 0059): its state, folded
from its stream, and the rules of opening and resolving one. Pure.

A conflict sets facts against each other: a ``duplicate`` (one real thing twice), a
``contradiction`` (assertions that cannot both hold) or a ``stale`` fact (one member: its
confidence has decayed below its kind's threshold). It is opened once and resolved once,
only by an explicit decision with a reason — it never resolves itself, even when its
members are forgotten meanwhile. Resolving it is ``keep`` (the kept member is
confirmed, every other active member forgotten, by events on their own streams in the
same transaction; of a ``declared`` conflict — two framed versions a caller set against
each other — the adopted member is confirmed and neither is forgotten: "declare and
settle conflicting framed versions without deleting either", decision 0080), ``merge``
(the other active members merged into the kept one, in the same transaction) or
``both`` (every member stands). A purge of a member closes an open conflict with the
outcome ``purged``: there is nothing left to set against the others (decision 0134).

A conflict's id is derived from its class, its members and what triggered it
(:func:`conflict_id`), so detecting the same conflict twice (a store and a scan, two
scans racing) opens it once: the second append finds the stream taken.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from enum import StrEnum
from functools import reduce

from embornal.domain.events import DomainEvent, Event
from embornal.domain.events.conflicts import ConflictOpened, ConflictResolved
from embornal.domain.values import value
from embornal.errors import Conflict, InvalidInput

__all__ = [
    "ID_PREFIX",
    "STREAM_PREFIX",
    "ConflictClass",
    "ConflictState",
    "OpenConflict",
    "Outcome",
    "ResolveConflict",
    "conflict_id",
    "decide_close_purged",
    "decide_open",
    "decide_resolve",
    "evolve",
    "fold",
    "stream_of",
]

STREAM_PREFIX = "conflict:"
ID_PREFIX = "K"
_ID_HEX = 15


class ConflictClass(StrEnum):
    DUPLICATE = "duplicate"
    CONTRADICTION = "contradiction"
    STALE = "stale"
    DECLARED = "declared"  # marked by a caller (mark_conflict; decision 0080)


class Outcome(StrEnum):
    KEEP = "keep"
    BOTH = "both"
    MERGE = "merge"  # the others merged into the kept one (decision 0054)
    PURGED = "purged"  # a member was purged: closed by the purge (decision 0134)


def stream_of(conflict_id: str) -> str:
    return STREAM_PREFIX + conflict_id


def conflict_id(conflict_class: str, members: Iterable[str], trigger: str = "") -> str:
    """The id of a conflict of ``conflict_class`` between ``members`` (any order), opened
    by ``trigger`` (a contradiction's log position, a stale fact's last confirmation; ''
    for a duplicate): ``K`` and 15 hexadecimal digits, upper case."""
    key = "|".join([conflict_class, *sorted(set(members)), trigger])
    return ID_PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()[:_ID_HEX].upper()


@value
class ConflictState:
    """A conflict as its stream says, at ``version``; ``outcome`` None while open."""

    conflict_id: str
    version: int
    conflict_class: ConflictClass
    members: tuple[str, ...]
    findings: tuple[str, ...]
    score: float
    detected_by: str
    opened_at: datetime | None
    opened_by: str
    suggested_keep: str | None = None
    opened_reason: str | None = None  # why it was opened (a declared conflict's reason)
    outcome: Outcome | None = None
    kept_id: str | None = None
    archived: tuple[str, ...] = ()
    resolved_at: datetime | None = None
    resolved_by: str | None = None
    reason: str | None = None

    @property
    def is_open(self) -> bool:
        return self.outcome is None


@value
class OpenConflict:
    """Open a conflict among ``members`` (fact ids), as a detector found it."""

    conflict_class: ConflictClass
    members: tuple[str, ...]
    findings: tuple[str, ...]
    score: float
    detected_by: str
    trigger: str = ""
    suggested_keep: str | None = None


@value
class ResolveConflict:
    """``kept_id`` for keep; ``active``: the members still active, which keep forgets."""

    conflict_id: str
    outcome: Outcome
    kept_id: str | None
    active: frozenset[str] = frozenset()


_DECLARED = ConflictClass.DECLARED


def decide_open(state: ConflictState | None, command: OpenConflict) -> list[DomainEvent]:
    """``[ConflictOpened]``; nothing when the same conflict is open or was resolved."""
    members = tuple(dict.fromkeys(command.members))
    need = 1 if command.conflict_class is ConflictClass.STALE else 2
    if len(members) < need:
        raise InvalidInput(f"a {command.conflict_class.value} conflict needs {need} facts")
    if state is not None:
        return []
    cid = conflict_id(command.conflict_class.value, members, command.trigger)
    return [
        ConflictOpened(
            cid,
            command.conflict_class.value,
            members,
            command.findings,
            round(min(max(command.score, 0.0), 1.0), 3),
            command.detected_by,
            command.suggested_keep if command.suggested_keep in members else None,
        )
    ]


def decide_resolve(state: ConflictState, command: ResolveConflict) -> list[DomainEvent]:
    """``[ConflictResolved]``: once, by keep or merge (one of its members; merge needs
    another active member to merge into it) or both."""
    if not state.is_open:
        assert state.outcome is not None
        kept = f" (kept {state.kept_id})" if state.kept_id else ""
        raise Conflict(
            f"conflict {state.conflict_id} is already resolved: {state.outcome.value}{kept}",
            hint="`embornal conflict show ID` shows who resolved it and why.",
        )
    if state.conflict_class is ConflictClass.STALE and command.outcome is not Outcome.KEEP:
        raise InvalidInput(
            "a stale conflict has one fact: resolve it with --keep ID (a confirmation)",
            hint="Or forget the fact first, then resolve the conflict with --keep ID.",
        )
    if command.outcome is not Outcome.BOTH:
        flag = f"--{command.outcome.value}"
        if command.kept_id not in state.members:
            raise InvalidInput(
                f"{flag} must name one of the conflict's facts: {', '.join(state.members)}",
                hint="`embornal conflict show ID` lists them.",
            )
        archived = tuple(
            m
            for m in state.members
            if m != command.kept_id
            and m in command.active
            and (command.outcome is Outcome.MERGE or state.conflict_class is not _DECLARED)
        )
        if command.outcome is Outcome.MERGE and not archived:
            raise Conflict(
                f"no other fact of conflict {state.conflict_id} is active: nothing to merge",
                hint="Resolve it with --keep ID instead.",
            )
        return [
            ConflictResolved(state.conflict_id, command.outcome.value, command.kept_id, archived)
        ]
    return [ConflictResolved(state.conflict_id, Outcome.BOTH.value)]


def decide_close_purged(state: ConflictState, fact_id: str) -> list[DomainEvent]:
    """``[ConflictResolved]`` of outcome ``purged`` when the conflict is open and
    ``fact_id``, being purged, is a member of it (``[]`` otherwise): no one decides a
    conflict one of whose sides is erased."""
    if not state.is_open or fact_id not in state.members:
        return []
    return [ConflictResolved(state.conflict_id, Outcome.PURGED.value)]


def evolve(state: ConflictState | None, event: Event) -> ConflictState:
    """The state after one more event of the conflict's stream."""
    body = event.body
    if isinstance(body, ConflictOpened):
        if state is not None:
            raise ValueError(f"conflict {state.conflict_id} is opened twice")
        return ConflictState(
            conflict_id=body.conflict_id,
            version=event.version,
            conflict_class=ConflictClass(body.conflict_class),
            members=body.members,
            findings=body.findings,
            score=body.score,
            detected_by=body.detected_by,
            opened_at=event.recorded_at,
            opened_by=event.actor,
            suggested_keep=body.suggested_keep,
            opened_reason=event.reason,
        )
    if state is None:
        raise ValueError(f"{event.type} before the conflict was opened")
    if isinstance(body, ConflictResolved):
        return replace(
            state,
            version=event.version,
            outcome=Outcome(body.outcome),
            kept_id=body.kept_id,
            archived=body.archived,
            resolved_at=event.recorded_at,
            resolved_by=event.actor,
            reason=event.reason,
        )
    raise ValueError(f"{event.type} is not an event of a conflict's stream")


def fold(events: Sequence[Event]) -> ConflictState | None:
    return reduce(evolve, events, None)
