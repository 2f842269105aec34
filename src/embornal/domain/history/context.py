"""A memory's history context and the chronology read from it, pure (docs/model.md, Frames
and history context; decisions 0088–0090).

The context is what the caller asserts about the event a memory tells of: ``event_at``,
when it happened (valid time, separate from the time the memory was recorded and from
``store``'s ``at``); ``session``, the conversation it was said in (memory-as-history's
``session_id``); ``session_position``, its place in that session. Nothing here is
inferred: a memory with no context has an unknown event time.

Also here: the checks of the timeline's and the history search's inputs, memory-as-history's
relation names on embornal's typed links, and the bounded choice of the evidence a
history search adds to each hit (:func:`select_evidence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from embornal.domain.clock import parse_time
from embornal.domain.events import DomainEvent
from embornal.domain.events.protocol import MemoryContextSet
from embornal.domain.graph.rules import Relation
from embornal.domain.history.state import history_of
from embornal.errors import Conflict, InvalidInput, InvalidLink

if TYPE_CHECKING:
    from embornal.domain.facts.aggregate import FactState

__all__ = [
    "MAX_EVIDENCE",
    "MAX_EXPAND",
    "MAX_POSITION",
    "MAX_SESSION_LENGTH",
    "SEED_RELATIONS",
    "VIA",
    "EvidencePick",
    "HistoryContext",
    "check_context",
    "check_expand",
    "check_order",
    "check_via",
    "check_window",
    "decide_set_context",
    "relation_of",
    "select_evidence",
]

MAX_SESSION_LENGTH = 200
#: The largest session position (a whole number a JSON reader keeps exactly).
MAX_POSITION = 2**53
#: ``search_history(expand=N)``: at most this many neighbours per hit and per way.
MAX_EXPAND = 5
#: ``search_history``: at most this many memories of evidence in one answer, all hits.
MAX_EVIDENCE = 50
#: The ways evidence is reached: ``session`` (neighbours by position), ``links`` (typed
#: links, one hop), ``both`` (links first).
VIA = ("both", "session", "links")

#: memory-as-history's relation names on embornal's closed vocabulary (decision 0090): ``related``
#: is ``relates_to``; ``updates`` (the newer account revises the older) is
#: ``supersedes`` as a link only (both memories stay live, neither is preferred);
#: ``explains`` (the source gives the reason of the target) is ``about``.
SEED_RELATIONS: Mapping[str, Relation] = {
    "related": Relation.RELATES_TO,
    "updates": Relation.SUPERSEDES,
    "explains": Relation.ABOUT,
}
_ALLOWED = ", ".join([*SEED_RELATIONS, *(r.value for r in Relation)])


@dataclass(frozen=True)
class HistoryContext:
    """A memory's history context; None: unknown (no session, no position)."""

    event_at: datetime | None = None
    session: str | None = None
    session_position: int | None = None


def _time(value: object, name: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str | datetime):
        raise InvalidInput(f"{name} must be an ISO-8601 time, not {type(value).__name__}")
    try:
        return parse_time(value)
    except InvalidInput:
        raise InvalidInput(
            f"{name} must be an ISO-8601 time such as 2025-03-01T09:00:00Z (no zone: UTC; "
            f"a date: its first instant), not {str(value)[:60]!r}"
        ) from None


def check_context(event_at: object, session: object, session_position: object) -> HistoryContext:
    """The context given (a blank session is none); a position needs a session."""
    at = _time(event_at, "event_at")
    label: str | None = None
    if session is not None:
        if not isinstance(session, str) or len(session) > MAX_SESSION_LENGTH or "\x00" in session:
            raise InvalidInput(
                f"session must be a label of at most {MAX_SESSION_LENGTH} characters, without NUL"
            )
        label = session.strip() or None
    position: int | None = None
    if session_position is not None:
        if (
            isinstance(session_position, bool)
            or not isinstance(session_position, int)
            or not 0 <= session_position <= MAX_POSITION
        ):
            raise InvalidInput(
                f"session_position must be a whole number from 0 to {MAX_POSITION}, "
                f"not {session_position!r}"
            )
        if label is None:
            raise InvalidInput(
                "session_position needs a session_id: a position is a place in one session",
                hint="Give session_id too, e.g. session_id='standup-2025-03-01'.",
            )
        position = session_position
    return HistoryContext(at, label, position)


def check_window(start: object, end: object) -> tuple[datetime | None, datetime | None]:
    """The inclusive event-time window; ``start`` may not be after ``end``."""
    lo, hi = _time(start, "start"), _time(end, "end")
    if lo is not None and hi is not None and lo > hi:
        raise InvalidInput("start must be at or before end")
    return lo, hi


def check_order(order: object) -> bool:
    """True for ``desc`` (the latest event first), False for ``asc`` (the default)."""
    if order is None or order == "asc":
        return False
    if order == "desc":
        return True
    raise InvalidInput(f"order must be asc or desc, not {order!r}")


def check_expand(expand: object) -> int:
    if expand is None:
        return 0
    if isinstance(expand, bool) or not isinstance(expand, int) or not 0 <= expand <= MAX_EXPAND:
        raise InvalidInput(f"expand must be a whole number from 0 to {MAX_EXPAND}, not {expand!r}")
    return expand


def check_via(via: object) -> str:
    if via is None:
        return "both"
    if via not in VIA:
        raise InvalidInput(f"via must be one of {', '.join(VIA)}, not {via!r}")
    assert isinstance(via, str)
    return via


def relation_of(name: object) -> Relation:
    """The typed relation a memory-as-history name (``related``, ``updates``, ``explains``) or
    one of embornal's own names stands for; anything else is refused with the allowed names."""
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else ""
    if key in SEED_RELATIONS:
        return SEED_RELATIONS[key]
    try:
        return Relation(key)
    except ValueError:
        raise InvalidLink(
            f"unknown relation {str(name)[:60]!r}; the relations are {_ALLOWED}",
            hint=f"Use one of: {_ALLOWED}, e.g. link_memories(source_id, target_id, "
            "relation='related').",
        ) from None


def decide_set_context(state: FactState, context: HistoryContext) -> list[DomainEvent]:
    """``[MemoryContextSet]`` replacing the whole context of a live memory (the one it
    had kept alongside); ``[]`` when it is that already."""
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}: only an active memory's history "
            "context is set",
            hint="Restore it first: restore(memory_id, reason).",
        )
    h = history_of(state)
    before = HistoryContext(h.event_at, h.session, h.session_position)
    if before == context:
        return []
    return [
        MemoryContextSet(
            state.fact_id,
            context.event_at,
            context.session,
            context.session_position,
            before.event_at,
            before.session,
            before.session_position,
        )
    ]


@dataclass(frozen=True)
class EvidencePick:
    """One memory of evidence for the hit ``seed_id``: reached by ``via`` ``session``
    (``offset`` places from the hit) or ``link`` (``relation``, read ``out`` from the hit
    or ``in`` towards it)."""

    memory_id: str
    seed_id: str
    via: str
    offset: int | None = None
    relation: str | None = None
    direction: str | None = None


def select_evidence(
    hits: Sequence[str],
    near: Mapping[str, Sequence[tuple[str, int]]],
    linked: Mapping[str, Sequence[tuple[str, str, str]]],
    n: int,
    via: str,
) -> list[EvidencePick]:
    """For each hit in rank order, up to ``n`` linked memories (``linked[hit]``: (id,
    relation, direction), in order) then up to ``n`` session neighbours (``near[hit]``:
    (id, offset), the nearest first); a memory is given once in the whole answer (a hit
    is never evidence), and at most :data:`MAX_EVIDENCE` are given in all."""
    if n <= 0:
        return []
    seen = set(hits)
    picks: list[EvidencePick] = []
    for hit in hits:
        if via in ("both", "links"):
            taken = 0
            for other, relation, direction in linked.get(hit, ()):
                if taken >= n or len(picks) >= MAX_EVIDENCE:
                    break
                if other not in seen:
                    seen.add(other)
                    picks.append(EvidencePick(other, hit, "link", None, relation, direction))
                    taken += 1
        if via in ("both", "session"):
            taken = 0
            for other, offset in near.get(hit, ()):
                if taken >= n or len(picks) >= MAX_EVIDENCE:
                    break
                if other not in seen:
                    seen.add(other)
                    picks.append(EvidencePick(other, hit, "session", offset))
                    taken += 1
    return picks
