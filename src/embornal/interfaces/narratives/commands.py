"""The text of ``embornal narrative add|current|review|history|list``; their parsers come
from the catalogue and ``--json`` prints the wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.narratives.results import Narrative, NarrativeView, SourceIssue

__all__ = ["show_narrative", "show_narratives", "show_view"]


def _issues(ctx: Context, issues: tuple[SourceIssue, ...]) -> None:
    for i in issues:
        ctx.say(f"  {i.issue} {i.ref}" + ("" if i.live else " (cleared, not approved)"))


def show_narrative(ctx: Context, n: Narrative) -> None:
    """``ID scope/perspective vN status``, then the text (or why it is withheld)."""
    ctx.say(f"{n.narrative_id} {n.scope}/{n.perspective} v{n.version} {n.review_status}")
    if n.content is not None:
        ctx.say(n.content)
    else:
        ctx.say("(text withheld: not usable; `embornal narrative history` shows it)")
    _issues(ctx, n.source_issues)
    ctx.warn(n.warnings)


def show_narratives(ctx: Context, rows: list[Narrative]) -> None:
    ctx.say_each(rows, "no narratives yet", lambda n: show_narrative(ctx, n))


def show_view(ctx: Context, v: NarrativeView) -> None:
    if v.narrative is not None:
        show_narrative(ctx, v.narrative)
        return
    r = v.narrative_review
    if r is None:
        ctx.say(f"no narrative for scope {v.scope}")
        return
    ctx.say(f"{r.narrative_id} {r.scope}/{r.perspective} withheld: review needed")
    _issues(ctx, r.source_issues)
    ctx.say(r.hint)
    if v.inspected is not None and v.inspected.content is not None:
        ctx.say(f"its text, not to be relied on until reviewed: {v.inspected.content}")
