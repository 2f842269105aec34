"""``memory undo EVENT_ID --reason …``'s text, and the undo column of the history tables.

The command's parser and call come from the catalogue (:mod:`.derived`). The event id is
the log position the ``#`` column of ``memory history`` shows (``#12`` works too: the
converter of its input type reads it); it and the reason are checked before the memory
opens, so bad input is one line, exit 2, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.events import Event
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.render import cell

__all__ = ["show_undone", "undo_notes"]


def _undoes(event: Event) -> int | None:
    value = event.payload.get("undoes")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def undo_notes(events: Sequence[Event]) -> list[str]:
    """For each event: ``undoes #N`` (a compensation), ``undone by #M`` (among these
    events), both, or ``-``."""
    undone_by: dict[int, list[int]] = {}
    for e in events:
        target = _undoes(e)
        if target is not None:
            undone_by.setdefault(target, []).append(e.position)
    notes = []
    for e in events:
        parts = []
        target = _undoes(e)
        if target is not None:
            parts.append(f"undoes #{target}")
        by = sorted(set(undone_by.get(e.position, ())))
        if by:
            parts.append("undone by " + ", ".join(f"#{p}" for p in by))
        notes.append("; ".join(parts) or "-")
    return notes


def show_undone(ctx: Context, events: Sequence[Event]) -> None:
    """One line per event an undo appended: the event undone, then the new one."""
    for e in events:
        ctx.say(f"undid #{_undoes(e)}: #{e.position} {e.type} on {cell(e.stream_id)}")
