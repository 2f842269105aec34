"""Undo one event of the log: append its compensating events (decision 0043).

The event is named by its log position (the ``#`` column of ``memory history``). It must
belong to a stream the subject can read a history of: a fact it may read, or a path with
facts it may read below it, or tags it set itself. Any other event answers exactly as a
missing one, so an undo never tells whether an event exists that the subject may not see.

What compensates what is decided in the domain (:func:`embornal.domain.undo.decide_undo`)
over the stream's folded state; the undo takes the rights of the compensation (forget or
restore: delete; an attribute update: write and delete; a confidence reset or a path tag:
write). The events are appended at the version the decision read; on a concurrent write
the whole load → decide → append runs again (which may now refuse), at most
:data:`~embornal.service.facts.lifecycle.MAX_ATTEMPTS` times.
"""

from __future__ import annotations

from embornal.domain.events import Event
from embornal.domain.facts.fact import check_reason
from embornal.domain.undo import check_event_id, decide_undo, rule_for
from embornal.errors import ConcurrencyError, NotFound
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import MAX_ATTEMPTS

__all__ = ["undo"]

_PATH_STREAM = "path:"


def _unknown(position: int) -> NotFound:
    return NotFound(
        f"no event {position} in a history you can read",
        hint="Take the event id from the # column of `embornal memory history ID`.",
    )


def _event_at(ctx: ServiceContext, position: int) -> Event:
    event = next(iter(ctx.store.read_all(after=position - 1, until=position)), None)
    if event is None or event.position != position:
        raise _unknown(position)
    return event


def _check_visible_and_allowed(ctx: ServiceContext, event: Event) -> None:
    """:class:`NotFound` for an event of a stream the subject cannot read, the same as a
    missing one; then the rights the compensation takes."""
    sid = event.stream_id
    if sid.startswith(_PATH_STREAM):
        path = sid[len(_PATH_STREAM) :]
        if event.actor != ctx.subject and not ctx.store.subtree(path, ctx.scope()):
            raise _unknown(event.position)
        rule = rule_for(event)
        for right in rule.rights:
            ctx.access.require(right, ctx.access.new_fact_object(path, {}))
        return
    fact = ctx.store.get_fact(sid, ctx.scope())  # None too for recall, policy, token streams
    if fact is None:
        raise _unknown(event.position)
    rule = rule_for(event)
    for right in rule.rights:
        if right == "rewrite":
            ctx.require_to_rewrite(fact, f"undoing event {event.position}")
        else:
            ctx.access.require(right, ctx.access.fact_object(fact))


def undo(ctx: ServiceContext, event_id: int | str, *, reason: str) -> list[Event]:
    """Append the events that undo the event at log position ``event_id`` (``#12`` and
    ``"12"`` work too), each with ``undoes`` = that position and ``reason``; returns them."""
    position = check_event_id(event_id)
    why = check_reason(reason)
    assert why is not None  # required
    target = _event_at(ctx, position)
    _check_visible_and_allowed(ctx, target)
    for _ in range(MAX_ATTEMPTS):
        stream = ctx.store.stream(target.stream_id)
        superseded_by = None
        if rule_for(target).stream == "fact":
            state = ctx.store.fact_state(target.stream_id)
            superseded_by = state.superseded_by if state is not None else None
        bodies = decide_undo(
            target, stream, by=ctx.subject, at=ctx.now(), superseded_by=superseded_by
        )
        version = stream[-1].version
        events = [
            ctx.event(target.stream_id, body, why, version + i) for i, body in enumerate(bodies)
        ]
        try:
            with ctx.store.transaction("undoing an event") as tx:
                return ctx.store.append(tx, events)
        except ConcurrencyError:
            continue
    raise ConcurrencyError(
        f"the stream of event {position} changed {MAX_ATTEMPTS} times while undoing it; "
        "nothing was written",
        hint="Other writers are busy with it; read its history again and retry.",
    )
