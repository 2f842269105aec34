"""The text of the history protocol facade's commands (``memory audit``); their parsers
come from the catalogue and ``--json`` prints the wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.history.chronicle_results import AuditEntry

__all__ = ["show_audit"]


def show_audit(ctx: Context, entries: list[AuditEntry]) -> None:
    """``#POSITION TIME ACTION TARGET by ACTOR: REASON``, the newest first (the target: the
    memory, the claim, or the narrative version)."""
    from embornal.domain.clock import format_time

    def show(e: AuditEntry) -> str:
        when = format_time(e.at, micro=False)
        target = e.claim_id or e.narrative_id or e.conflict_id or e.memory_id or "-"
        return f"#{e.position} {when} {e.action} {target} by {e.actor}: {e.reason or '-'}"

    ctx.say_each(entries, "no decisions yet", show)
