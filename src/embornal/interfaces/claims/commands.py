"""The text of the ``embornal claim`` commands (create, evidence, adopt, revise, withdraw,
retract, list, show; decision 0081); their parsers come from the catalogue and ``--json``
prints the wire shape."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import one_line

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.claims.results import ClaimList, ClaimRecord

__all__ = ["show_claim", "show_claims"]


def _t(moment: datetime | None) -> str:
    from embornal.domain.clock import format_time

    return "?" if moment is None else format_time(moment, micro=False)


def _statement(c: ClaimRecord) -> str:
    if c.statement is not None:
        return one_line(c.statement)
    if c.withheld_by:
        which = ", ".join(c.withheld_by)
        memory = "memory" if len(c.withheld_by) == 1 else "memories"
        verb = "is" if len(c.withheld_by) == 1 else "are"
        return f"(withheld while {memory} {which} {verb} forgotten: `embornal memory restore`)"
    return "(erased by a purge)"


def _head(ctx: Context, c: ClaimRecord) -> None:
    marks = [c.status, c.claim_type]
    if c.review_required:
        marks.append("review required")
    if c.sensitive:
        marks.append("sensitive")
    ctx.say(f"{c.id}  {' '.join(marks)}  scope {c.scope}")
    ctx.say(f"  {_statement(c)}")
    if c.valid_from is not None or c.valid_until is not None:
        ctx.say(f"  valid {_t(c.valid_from)} .. {_t(c.valid_until)}")


def show_claim(ctx: Context, c: ClaimRecord) -> None:
    """The claim, its evidence (one per line) and its history, reasons included."""
    _head(ctx, c)
    when = f" (as recorded by {_t(c.as_of)})" if c.as_of is not None else ""
    ctx.say(f"  recorded {_t(c.recorded_at)} by {c.owner}{when}")
    if c.asserted_by:
        ctx.say(
            f"  asserted by {c.asserted_by}"
            + (f" at {_t(c.statement_at)}" if c.statement_at else "")
        )
    s = c.support
    groups = ", ".join(s.origin_groups) or "none"
    ctx.say(f"  support: {s.supporting} supporting, {s.challenging} challenging; origins: {groups}")
    for e in c.evidence:
        label = "(withheld)" if e.source is None else repr(e.source)
        what = f"memory {e.memory_id}" if e.memory_id else f"source {label}"
        off = "" if e.active else "  (retracted)"
        note = f": {one_line(e.note)}" if e.note else ""
        ctx.say(f"  {e.evidence_id} {e.stance} {what}{note}{off}")
    none = "(withheld)" if c.withheld_by else "-"
    for d in c.history:
        ctx.say(f"  {_t(d.recorded_at)} {d.action} by {d.actor}: {d.reason or none}")
    if c.replaced_by:
        ctx.say(f"  replaced by {c.replaced_by}")
    for issue in c.source_issues:
        ctx.note(f"warning: {issue}")


def show_claims(ctx: Context, found: ClaimList) -> None:
    """One claim per two lines, then how many there were."""
    if not found.claims:
        ctx.say("no claims")
        return
    for c in found.claims:
        _head(ctx, c)
    if found.truncated:
        ctx.note(f"{found.eligible_count} claims found; showing {len(found.claims)} (--limit)")
