"""The text of the history protocol's commands (``memory remember``, ``promote``,
``corroborate``, ``provenance``, ``review``, ``flag-sensitive``, ``due-for-consolidation``,
``due-for-review``, ``list-forgotten``); their parsers come from the catalogue and
``--json`` prints the wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import one_line

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.history.results import (
        DueMemory,
        ForgottenMemory,
        MemoryStatus,
        ProvenanceReport,
    )

__all__ = ["show_due", "show_forgotten", "show_provenance", "show_status"]


def show_status(ctx: Context, s: MemoryStatus) -> None:
    """``ID PATH  working archive [sensitive] [pinned]``, then the text, the event time
    and session place when known, and any warning."""
    marks = [s.stage, s.tier]
    if s.sensitive:
        marks.append("sensitive" + (f" (screened: {', '.join(s.screened)})" if s.screened else ""))
    if s.fact.pinned:
        marks.append("pinned")
    ctx.say(f"{s.fact.id} {s.fact.path}  {' '.join(marks)}")
    ctx.say(f"  {one_line(s.fact.content)}")
    if s.event_at is not None or s.session_position is not None:
        from embornal.domain.clock import format_time

        when = "unknown time" if s.event_at is None else format_time(s.event_at, micro=False)
        place = "" if s.session_position is None else f" [{s.session}#{s.session_position}]"
        ctx.say(f"  event: {when}{place}")
    ctx.warn(s.warnings)


def show_provenance(ctx: Context, p: ProvenanceReport) -> None:
    """The tier, origin, sources and the gate, one per line."""
    ctx.say(f"{p.fact_id} {p.tier}{'  sensitive' if p.sensitive else ''}")
    ctx.say(f"  origin: {p.origin if p.origin is not None else '(unknown)'}")
    ctx.say(f"  sources: {', '.join(p.sources) or '(none)'} ({p.recorded} recorded)")
    ctx.say(f"  gate: {p.explanation}")
    if p.warning:
        ctx.note(f"warning: {p.warning}")


def show_due(ctx: Context, found: list[DueMemory]) -> None:
    from embornal.domain.clock import format_time

    def show(d: DueMemory) -> str:
        flag = "  sensitive" if d.sensitive else ""
        since = format_time(d.since, micro=False)
        head = f"{d.fact.id} {d.fact.path}  {d.tier}{flag}  since {since}"
        return f"{head}\n  {one_line(d.fact.content)}"

    ctx.say_each(found, "nothing is due", show)


def show_forgotten(ctx: Context, found: list[ForgottenMemory]) -> None:
    from embornal.domain.clock import format_time

    def show(f: ForgottenMemory) -> str:
        when = format_time(f.forgotten_at, micro=False)
        head = f"{f.fact.id} {f.fact.path}  forgotten {when} by {f.actor}: {f.reason or '-'}"
        return f"{head}\n  {one_line(f.fact.content)}"

    ctx.say_each(found, "nothing is forgotten", show)
