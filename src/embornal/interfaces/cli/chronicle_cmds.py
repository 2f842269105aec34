"""The text of the history protocol facade's commands (``memory audit``); their parsers
come from the catalogue and ``--json`` prints the wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.chronicle_results import AuditEntry

__all__ = ["show_audit"]


def show_audit(ctx: Context, entries: list[AuditEntry]) -> None:
    """``#POSITION TIME ACTION MEMORY by ACTOR: REASON``, the newest first."""
    from embornal.domain.clock import format_time

    if not entries:
        ctx.say("no decisions yet")
        return
    for e in entries:
        when = format_time(e.at, micro=False)
        ctx.say(f"#{e.position} {when} {e.action} {e.memory_id} by {e.actor}: {e.reason or '-'}")
