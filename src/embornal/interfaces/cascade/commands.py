"""The text of ``memory cascade``, ``memory search`` and ``memory search-archive``
(decisions 0095-0097); their parsers come from the catalogue and ``--json`` prints the
wire shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import fmt_float, one_line

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.interfaces.cli.app import Context
    from embornal.service.history.cascade_results import Cascade
    from embornal.service.results import RecallHit

__all__ = ["show_cascade", "show_hits"]


def show_cascade(ctx: Context, c: Cascade) -> None:
    """Each section that has something, in the cascade's order: ``ID PATH: TEXT`` lines."""
    shown = False
    for title, rows in (
        ("anchors", [(f.id, f.path, f.content) for f in c.anchors]),
        ("canon", [(e.fact.id, f"{e.fact.path} [{e.scope}]", e.fact.content) for e in c.canon]),
        ("memories", [(h.fact.id, h.fact.path, h.fact.content) for h in c.memories]),
        (
            "stale interpretations (review them)",
            [(d.fact.id, d.fact.path, d.fact.content) for d in c.stale_interpretations],
        ),
    ):
        if rows:
            shown = True
            ctx.say(f"{title}:")
            for fid, path, text in rows:
                ctx.say(f"  {fid} {path}: {one_line(text)}")
    if c.narrative is not None:
        shown = True
        ctx.say(f"narrative ({c.narrative.scope}): {one_line(c.narrative.content or '')}")
    if c.narrative_review is not None:
        shown = True
        r = c.narrative_review
        issues = ", ".join(f"{i.ref} {i.issue}" for i in r.source_issues)
        ctx.say(f"narrative withheld ({r.scope}): {issues}; {r.hint}")
    if c.conflicts:
        shown = True
        ctx.say("open conflicts:")
        for k in c.conflicts:
            ctx.say(f"  {k.id} {k.conflict_class}: {' / '.join(m.id for m in k.members)}")
    if not shown:
        ctx.say("(no memories found)")


def show_hits(ctx: Context, hits: Sequence[RecallHit]) -> None:
    """``SCORE ID PATH: TEXT``, best first."""
    ctx.say_each(
        hits,
        "(no memories found)",
        lambda h: f"{fmt_float(h.score)} {h.fact.id} {h.fact.path}: {one_line(h.fact.content)}",
    )
