"""The text of the timeline's commands (``memory timeline``, ``memory search-history``);
their parsers come from the catalogue and ``--json`` prints the wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.history.timeline_results import HistoryHit, TimelineEntry

__all__ = ["show_hits", "show_timeline"]


def _line(e: TimelineEntry) -> str:
    from embornal.domain.clock import format_time

    when = "unknown time" if e.event_at is None else format_time(e.event_at, micro=False)
    place = ""
    if e.session_id is not None:
        at = "" if e.session_position is None else f"#{e.session_position}"
        place = f" [{e.session_id}{at}]"
    return f"{when}{place} {e.fact.id} {e.fact.content}"


def show_timeline(ctx: Context, entries: list[TimelineEntry]) -> None:
    """``EVENT-TIME [SESSION#POSITION] ID CONTENT``, one memory a line, in order."""
    ctx.say_each(entries, "no memories on the timeline", _line)


def show_hits(ctx: Context, hits: list[HistoryHit]) -> None:
    """Each hit as a timeline line with its score, its evidence indented beneath it."""
    if not hits:
        ctx.say("no memories match")
        return
    for h in hits:
        ctx.say(f"{h.score:.3f} {_line(h.entry)}")
        for e in h.evidence:
            how = (
                f"session {e.offset:+d}"
                if e.via == "session" and e.offset is not None
                else f"{e.relation} {e.direction}"
            )
            ctx.say(f"    ({how}) {_line(e.entry)}")
