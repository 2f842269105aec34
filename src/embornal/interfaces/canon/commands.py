"""The text of the canon and frame commands (``canon add|remove|end|list|scopes``,
``memory frames``); their parsers come from the catalogue and ``--json`` prints the wire
shape."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import one_line

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.history.canon_results import (
        CanonEntry,
        CanonRemoval,
        FrameInUse,
        ScopeInUse,
    )

__all__ = ["show_entries", "show_entry", "show_frames", "show_removal", "show_scopes"]


def show_entry(ctx: Context, e: CanonEntry) -> None:
    """``SCOPE ID since TIME by ACTOR: REASON``, the text, then any warning."""
    from embornal.domain.clock import format_time

    flag = "" if e.eligible_for_recall else "  (not eligible for recall)"
    when = format_time(e.since, micro=False)
    ctx.say(f"{e.scope} {e.fact.id} since {when} by {e.actor}: {e.reason or '-'}{flag}")
    ctx.say(f"  {one_line(e.fact.content)}")
    ctx.warn(e.warnings)


def show_entries(ctx: Context, entries: list[CanonEntry]) -> None:
    ctx.say_each(entries, "the active canon is empty", lambda e: show_entry(ctx, e))


def show_removal(ctx: Context, r: CanonRemoval) -> None:
    """``removed N membership(s) of SCOPES: IDS``."""
    noun = "membership" if r.removed == 1 else "memberships"
    ctx.say(f"removed {r.removed} {noun} of {', '.join(r.scopes)}: {' '.join(r.memory_ids)}")


def show_scopes(ctx: Context, scopes: list[ScopeInUse]) -> None:
    ctx.say_each(scopes, "no active scope", lambda s: f"{s.scope}  {s.entries}")


def show_frames(ctx: Context, frames: list[FrameInUse]) -> None:
    ctx.say_each(frames, "no frame in use", lambda f: f"{f.frame}  {f.memories}")
