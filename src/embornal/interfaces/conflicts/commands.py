"""``embornal conflict list|show|resolve|scan``: their text (decisions 0058–0060).

The parsers come from the catalogue (:mod:`.derived`); these print the result. A list
shows one line a conflict then one per fact; ``show`` each fact with its attributes and
confidence, side by side in reading order, and the resolution once there is one.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import fmt_float, one_line

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.interfaces.cli.app import Context
    from embornal.service.conflicts.record import ConflictRecord

__all__ = ["show_conflict", "show_conflicts", "show_scanned"]


def _state(fact: Fact) -> str:
    if fact.purged_at is not None:
        return "purged"
    if fact.deleted_at is not None:
        return "forgotten"
    return "superseded" if fact.superseded_by else "active"


def _head(c: ConflictRecord) -> str:
    found = "; ".join(c.findings)
    return f"{c.id} {c.conflict_class} {c.status}  score {fmt_float(c.score)}  ({found})"


def _member(ctx: Context, c: ConflictRecord, fact: Fact, detail: bool) -> None:
    marks = []
    if c.suggested_keep == fact.id and c.status == "open":
        marks.append("suggested keep")
    if c.kept_id == fact.id:
        marks.append("kept")
    mark = f"  [{', '.join(marks)}]" if marks else ""
    conf = "" if fact.confidence is None else f"  c {fmt_float(fact.confidence)}"
    ctx.say(f"  {fact.id} {fact.kind} {fact.path}  {_state(fact)}{conf}{mark}")
    ctx.say(f"    {one_line(fact.content)}")
    if detail and fact.attributes:
        for key, value in sorted(fact.attributes.items()):
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            ctx.say(f"    {key}: {one_line(str(text))}")


def show_conflicts(ctx: Context, found: list[ConflictRecord]) -> None:
    if not found:
        ctx.say("no conflicts")
        return
    for c in found:
        ctx.say(_head(c))
        for fact in c.members:
            _member(ctx, c, fact, detail=False)


def show_conflict(ctx: Context, c: ConflictRecord) -> None:
    from embornal.domain.clock import format_time

    ctx.say(_head(c))
    opened = format_time(c.opened_at, micro=False) if c.opened_at else "?"
    ctx.say(f"opened {opened} by {c.opened_by} ({c.detected_by})")
    for fact in c.members:
        _member(ctx, c, fact, detail=True)
    if c.status == "resolved":
        when = format_time(c.resolved_at, micro=False) if c.resolved_at else "?"
        kept = f" {c.kept_id}" if c.kept_id else ""
        verb = "merged" if c.outcome == "merge" else "forgot"
        gone = f"; {verb} {', '.join(c.archived)}" if c.archived else ""
        ctx.say(f"resolved {when} by {c.resolved_by}: {c.outcome}{kept}{gone}")
        ctx.say(f"  reason: {one_line(c.reason or '')}")
    else:
        ctx.say(
            f"resolve: embornal conflict resolve {c.id} --keep FACT_ID|--merge FACT_ID|--both "
            "--reason WHY"
        )


def show_scanned(ctx: Context, found: list[ConflictRecord]) -> None:
    if not found:
        ctx.say("no new conflicts")
        return
    ctx.say(f"{len(found)} new conflict{'s' if len(found) != 1 else ''}")
    show_conflicts(ctx, found)
