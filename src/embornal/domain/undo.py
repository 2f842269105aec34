"""Undo: the compensating events for one event of the log (decision 0043).

The log is append-only, so an undo never removes the event it undoes: it appends the
events that set back what that event changed, each naming it in ``undoes`` (its log
position), with the undo's reason in the envelope. What compensates what is one table,
:data:`UNDO`: event class → :class:`UndoRule`, whose ``compensate`` is a pure function of
an :class:`Undoing` (the event, the state of its stream just before it and now, the
events since) that returns the bodies to append, or raises :class:`NotUndoable`.

=========================  ===========================================================
undone event               compensation
=========================  ===========================================================
FactStored (a supersede)   FactForgotten of the new fact (a forgotten successor gives
                           the old fact back, so a supersede is undone by this too)
FactForgotten              FactRestored
FactRestored               FactForgotten
FactAttributesUpdated      FactAttributesUpdated back to the previous values (a removed
                           optional attribute comes back, an added one goes)
FactConfirmed,             FactConfidenceReset to the confidence and last_confirmed_at
FactContradicted,          before it (evidence is append-only: undoing evidence
FactEvidenceAdded,         withdraws its confirmation, the evidence stays)
FactConfidenceReset
PathTagged                 PathTagged with the tagger's previous values, PathUntagged
                           of the keys it added
PathUntagged               PathTagged with the values it took off
FactVisibilityChanged      FactVisibilityChanged back to the visibility before it (its
                           owner only, as any visibility change)
FactImportanceAdjusted     FactImportanceAdjusted back to the pin and weight before it
FactLifetimeChanged        FactLifetimeChanged back to the lifetime before it (an
                           ephemeral one counts its day again from the undo)
FactLinked                 FactUnlinked of the same link
FactUnlinked               FactLinked of the same link
FactMerged                 none: a merge is taken back by hand (restore the source,
                           unlink the supersedes link; decision 0054)
FactPurged                 none: a purge erased the content for good (refused)
=========================  ===========================================================

An event a later event overrode is refused, naming the later event (undo that one
first): a forget or restore after the one undone, a later update of one of the same
attributes, a later confidence change, a later tag of the same key by the same tagger.
An undo is an event like any other, so undoing it is a redo (decision 0044).

A new event joins by one entry in :data:`UNDO` (its compensation, the rights it takes and
the stream it lives in) and, if it is itself a compensation, an ``undoes`` field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from embornal.domain.events import (
    DomainEvent,
    Event,
    FactAttributesUpdated,
    FactConfidenceReset,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactForgotten,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    FactPurged,
    FactRestored,
    FactStored,
    FactVisibilityChanged,
    PathTagged,
    PathUntagged,
)
from embornal.domain.events.graph import FactLinked, FactMerged, FactUnlinked
from embornal.domain.facts.aggregate import FactState, FactStatus, UpdateAttributes, decide_update
from embornal.domain.facts.aggregate import fold as fold_fact
from embornal.domain.facts.tags import Tag
from embornal.domain.history.canon import CANON_NOT_UNDOABLE
from embornal.domain.history.protocol import PROTOCOL_NOT_UNDOABLE, check_forget, check_pin
from embornal.errors import InvalidInput, NotUndoable

__all__ = [
    "MAX_EVENT_ID",
    "NOT_UNDOABLE",
    "UNDO",
    "PathTagsState",
    "UndoRule",
    "Undoing",
    "check_event_id",
    "decide_undo",
    "fold_path_tags",
    "rule_for",
]

S = TypeVar("S")

StreamKind = Literal["fact", "path"]


@dataclass(frozen=True)
class PathTagsState:
    """The tags on one path, by tagger (each tagger's own: decision 0021)."""

    path: str
    version: int
    tags: Mapping[str, Mapping[str, str]] = field(default_factory=dict, hash=False)

    def of(self, tagger: str) -> Mapping[str, str]:
        return self.tags.get(tagger, {})


def fold_path_tags(events: Iterable[Event]) -> PathTagsState | None:
    """The tags of a path's stream (``path:<path>``), None for an empty one."""
    state: PathTagsState | None = None
    for e in events:
        body = e.body
        if not isinstance(body, PathTagged | PathUntagged):
            continue
        tags = {k: dict(v) for k, v in (state.tags if state else {}).items()}
        mine = tags.setdefault(e.actor, {})
        if isinstance(body, PathTagged):
            mine.update({t.key: t.value for t in body.tags})
        else:
            for key in body.keys:
                mine.pop(key, None)
        state = PathTagsState(body.path, e.version, tags)
    return state


@dataclass(frozen=True)
class Undoing(Generic[S]):
    """What a compensation decides on: the ``event`` undone, the state of its stream
    ``before`` it (None: it began the stream) and ``now``, the stream's events ``later``
    than it, who undoes (``by``) and when (``at``)."""

    event: Event
    before: S | None
    now: S
    later: tuple[Event, ...]
    by: str
    at: datetime

    @property
    def position(self) -> int:
        return self.event.position


Compensate = Callable[[Undoing[Any]], list[DomainEvent]]


@dataclass(frozen=True)
class UndoRule:
    """How to undo one event class: the pure ``compensate``, the access ``rights`` the
    compensation takes on the fact or path (``rewrite``: write and delete, as an update),
    and the ``stream`` kind whose state it decides on."""

    compensate: Compensate
    rights: tuple[str, ...]
    stream: StreamKind = "fact"


def _in_force(u: Undoing[Any]) -> list[Event]:
    """The later events still in force: a later event and the undo of it (both after the
    undone one) cancel out, newest first, so a redo (the undo of an undo) stays."""
    cancelled: set[int] = set()
    later = {e.position for e in u.later}
    for e in reversed(u.later):
        target = _undoes(e)
        if e.position not in cancelled and target in later and target not in cancelled:
            cancelled.update((e.position, target))
    return [e for e in u.later if e.position not in cancelled]


def _undoes(e: Event) -> int | None:
    return getattr(e.body, "undoes", None)


def _refuse_later(u: Undoing[Any], classes: tuple[type[DomainEvent], ...], what: str) -> None:
    """Refuse when a later event of ``classes``, still in force, overrode what the undone
    event did (or undid it already)."""
    for e in _in_force(u):
        if _undoes(e) == u.position:
            raise NotUndoable(
                f"event {u.position} was undone already, by event {e.position}",
                hint=f"Undo event {e.position} to redo it: `embornal memory undo "
                f"{e.position} --reason …`.",
            )
        if isinstance(e.body, classes) and _touches(u.event, e):
            raise NotUndoable(
                f"event {u.position} cannot be undone: event {e.position} ({e.type}) "
                f"changed {what} since",
                hint=f"Undo event {e.position} first: `embornal memory undo {e.position} "
                "--reason …`.",
            )


def _touches(undone: Event, later: Event) -> bool:
    """Whether ``later`` changed something ``undone`` changed (same fields, same keys)."""
    a, b = undone.body, later.body
    if isinstance(a, FactAttributesUpdated) and isinstance(b, FactAttributesUpdated):
        return bool(set(a.changes or {}) & set(b.changes or {}))
    if isinstance(a, FactLinked | FactUnlinked) and isinstance(b, FactLinked | FactUnlinked):
        return (a.relation, a.target_id) == (b.relation, b.target_id)
    if isinstance(a, PathTagged | PathUntagged) and isinstance(b, PathTagged | PathUntagged):
        return later.actor == undone.actor and bool(_keys(a) & _keys(b))
    return True


def _keys(body: PathTagged | PathUntagged) -> set[str]:
    return {t.key for t in body.tags} if isinstance(body, PathTagged) else set(body.keys)


_STATUS = (FactForgotten, FactRestored)
_CONFIDENCE = (FactConfirmed, FactContradicted, FactEvidenceAdded, FactConfidenceReset)


def _fact_id(u: Undoing[FactState]) -> str:
    return u.now.fact_id


def _undo_store(u: Undoing[FactState]) -> list[DomainEvent]:
    if u.now.status is FactStatus.FORGOTTEN:
        last = [e for e in u.later if isinstance(e.body, _STATUS)][-1]
        raise NotUndoable(
            f"event {u.position} cannot be undone: fact {_fact_id(u)} is forgotten already "
            f"(event {last.position})",
            hint="Nothing to take back: it is out of recall.",
        )
    check_forget(u.now)  # an anchor or a canon entry is taken off first (docs/model.md, Lifecycle)
    return [FactForgotten(_fact_id(u), undoes=u.position)]


def _undo_forget(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, _STATUS, f"whether fact {_fact_id(u)} is forgotten")
    return [FactRestored(_fact_id(u), undoes=u.position)]


def _undo_restore(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, _STATUS, f"whether fact {_fact_id(u)} is forgotten")
    check_forget(u.now)
    return [FactForgotten(_fact_id(u), undoes=u.position)]


def _undo_update(u: Undoing[FactState]) -> list[DomainEvent]:
    body = u.event.body
    assert isinstance(body, FactAttributesUpdated) and u.before is not None
    changed = sorted(body.changes or {})
    _refuse_later(u, (FactAttributesUpdated,), "the attributes " + ", ".join(changed))
    previous = dict(u.before.attributes)
    if previous and (u.before.kind_version or 1) < body.kind_version:
        from embornal.domain.kinds.registry import KINDS

        previous = dict(KINDS.upcast(u.before.kind, u.before.kind_version or 1, previous)[1])
    changes = {name: previous.get(name) for name in changed}
    out = decide_update(u.now, UpdateAttributes(_fact_id(u), changes), u.at)
    if not out:
        raise NotUndoable(
            f"event {u.position} cannot be undone: the attributes already hold their "
            "earlier values",
            hint="Nothing to take back.",
        )
    return [replace(e, undoes=u.position) for e in out]


def _undo_confidence(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, _CONFIDENCE, f"the confidence of fact {_fact_id(u)}")
    assert u.before is not None
    return [
        FactConfidenceReset(
            _fact_id(u), u.before.confidence, u.before.last_confirmed_at, undoes=u.position
        )
    ]


def _undo_visibility(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, (FactVisibilityChanged,), f"the visibility of fact {_fact_id(u)}")
    assert u.before is not None
    if u.by != u.now.owner:
        raise NotUndoable(
            f"event {u.position} cannot be undone by {u.by}: only the owner of fact "
            f"{_fact_id(u)} ({u.now.owner}) sets who may see it",
            hint="Ask the fact's owner to undo it.",
        )
    return [FactVisibilityChanged(_fact_id(u), u.before.visibility or "shared", undoes=u.position)]


def _undo_importance(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, (FactImportanceAdjusted,), f"the pin or weight of fact {_fact_id(u)}")
    assert u.before is not None
    b, now = u.before, u.now
    if b.pinned and not now.pinned:  # pinning again: the history protocol's conditions
        check_pin(now)
    return [
        FactImportanceAdjusted(
            _fact_id(u), b.pinned, b.user_weight, now.pinned, now.user_weight, undoes=u.position
        )
    ]


def _undo_lifetime(u: Undoing[FactState]) -> list[DomainEvent]:
    _refuse_later(u, (FactLifetimeChanged,), f"the lifetime of fact {_fact_id(u)}")
    assert u.before is not None
    before, now = str(u.before.lifetime), str(u.now.lifetime)
    return [FactLifetimeChanged(_fact_id(u), before, now, undoes=u.position)]


def _undo_link(u: Undoing[FactState]) -> list[DomainEvent]:
    body = u.event.body
    assert isinstance(body, FactLinked | FactUnlinked)
    what = f"the link {body.fact_id} {body.relation} {body.target_id}"
    _refuse_later(u, (FactLinked, FactUnlinked), what)
    if isinstance(body, FactLinked):
        return [FactUnlinked(body.fact_id, body.relation, body.target_id, undoes=u.position)]
    return [FactLinked(body.fact_id, body.relation, body.target_id, undoes=u.position)]


def _check_tagger(u: Undoing[PathTagsState]) -> None:
    if u.event.actor != u.by:
        raise NotUndoable(
            f"event {u.position} cannot be undone by {u.by}: path tags are their tagger's "
            f"own, and these are {u.event.actor}'s",
            hint=f"Ask {u.event.actor} to undo it.",
        )


def _undo_tagged(u: Undoing[PathTagsState]) -> list[DomainEvent]:
    _check_tagger(u)
    body = u.event.body
    assert isinstance(body, PathTagged)
    _refuse_later(u, (PathTagged, PathUntagged), "those tags")
    had = u.before.of(u.event.actor) if u.before is not None else {}
    back = tuple(
        Tag(t.key, had[t.key]) for t in body.tags if t.key in had and had[t.key] != t.value
    )
    off = tuple(t.key for t in body.tags if t.key not in had)
    out: list[DomainEvent] = []
    if back:
        out.append(PathTagged(body.path, back, undoes=u.position))
    if off:
        out.append(PathUntagged(body.path, off, undoes=u.position))
    if not out:
        raise NotUndoable(
            f"event {u.position} cannot be undone: the path had those tags already",
            hint="Nothing to take back.",
        )
    return out


def _undo_untagged(u: Undoing[PathTagsState]) -> list[DomainEvent]:
    _check_tagger(u)
    body = u.event.body
    assert isinstance(body, PathUntagged)
    _refuse_later(u, (PathTagged, PathUntagged), "those tags")
    had = u.before.of(u.event.actor) if u.before is not None else {}
    back = tuple(Tag(k, had[k]) for k in body.keys if k in had)
    if not back:
        raise NotUndoable(
            f"event {u.position} cannot be undone: it took off no tag",
            hint="Nothing to take back.",
        )
    return [PathTagged(body.path, back, undoes=u.position)]


UNDO: dict[type[DomainEvent], UndoRule] = {
    FactStored: UndoRule(_undo_store, ("delete",)),
    FactForgotten: UndoRule(_undo_forget, ("delete",)),
    FactRestored: UndoRule(_undo_restore, ("delete",)),
    FactAttributesUpdated: UndoRule(_undo_update, ("rewrite",)),
    FactConfirmed: UndoRule(_undo_confidence, ("write",)),
    FactContradicted: UndoRule(_undo_confidence, ("write",)),
    FactEvidenceAdded: UndoRule(_undo_confidence, ("write",)),
    FactConfidenceReset: UndoRule(_undo_confidence, ("write",)),
    FactVisibilityChanged: UndoRule(_undo_visibility, ("rewrite",)),
    FactImportanceAdjusted: UndoRule(_undo_importance, ("write",)),
    FactLifetimeChanged: UndoRule(_undo_lifetime, ("write",)),
    FactLinked: UndoRule(_undo_link, ("write",)),
    FactUnlinked: UndoRule(_undo_link, ("write",)),
    PathTagged: UndoRule(_undo_tagged, ("write",), "path"),
    PathUntagged: UndoRule(_undo_untagged, ("write",), "path"),
}
"""Event class → how to undo it. Every class of a fact's or a path's stream is here or in
:data:`NOT_UNDOABLE` (a test checks)."""

NOT_UNDOABLE: dict[type[DomainEvent], str] = {
    FactPurged: "a purge cannot be undone: it erased the fact's content for good",
    FactMerged: "a merge is not undone as one event: restore the source (`embornal memory "
    "restore SOURCE`) and unlink its supersedes link",
    **PROTOCOL_NOT_UNDOABLE,
    **CANON_NOT_UNDOABLE,
}
"""Event class → why no undo can exist for it."""


def rule_for(event: Event) -> UndoRule:
    """The rule that undoes ``event`` (:class:`NotUndoable` when there is none)."""
    body_type = type(event.body)
    why = NOT_UNDOABLE.get(body_type)
    if why is not None:
        raise NotUndoable(f"event {event.position}: {why}", hint="Nothing can bring it back.")
    rule = UNDO.get(body_type)
    if rule is None:
        raise NotUndoable(f"event {event.position} ({event.type}) cannot be undone")
    return rule


def decide_undo(
    event: Event,
    stream: Sequence[Event],
    *,
    by: str,
    at: datetime,
    superseded_by: str | None = None,
) -> list[DomainEvent]:
    """The bodies that undo ``event``, decided over its ``stream`` (all of it, as read),
    for ``by`` at ``at``. ``superseded_by``: the live fact that supersedes the stream's
    fact now (the one part of a fact's state outside its stream)."""
    rule = rule_for(event)
    index = next((i for i, e in enumerate(stream) if e.position == event.position), None)
    if index is None:
        raise ValueError(f"event {event.position} is not in the stream given")
    head, later = stream[:index], tuple(stream[index + 1 :])
    if rule.stream == "fact":
        now_fact = fold_fact(stream)
        assert now_fact is not None
        if now_fact.status is FactStatus.PURGED:
            purge = next(e for e in later if isinstance(e.body, FactPurged))
            raise NotUndoable(
                f"event {event.position} cannot be undone: fact {now_fact.fact_id} was "
                f"purged (event {purge.position}), and a purge cannot be undone",
                hint="Nothing can bring it back.",
            )
        now: Any = replace(now_fact, superseded_by=superseded_by)
        before: Any = fold_fact(head)
    else:
        now, before = fold_path_tags(stream), fold_path_tags(head)
    return rule.compensate(Undoing(event, before, now, later, by, at))


_DIGITS = re.compile(r"[0-9]{1,18}")
MAX_EVENT_ID = 10**18 - 1
"""The largest event id taken (18 digits; SQLite's integers end at 2**63 - 1)."""


def check_event_id(event_id: object) -> int:
    """The log position an event id names: a whole number from 1 (``#12`` works)."""
    text = event_id if isinstance(event_id, str) else None
    if isinstance(event_id, int) and not isinstance(event_id, bool):
        value: int | None = event_id
    elif text is not None and _DIGITS.fullmatch(text.strip().removeprefix("#")):
        value = int(text.strip().removeprefix("#"))
    else:
        value = None
    if value is None or not 1 <= value <= MAX_EVENT_ID:
        raise InvalidInput(
            f"an event id is a whole number from 1 (the # column of `embornal memory "
            f"history`), not {event_id!r}",
            hint="See `embornal memory history ID`.",
        )
    return value
