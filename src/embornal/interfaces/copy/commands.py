"""The text of ``admin copy --to`` (decision 0102): progress on stderr while it copies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.app import Context

if TYPE_CHECKING:
    from embornal.interfaces.catalog_types import Operation
    from embornal.service.portability.copying import Copied

__all__ = ["copy", "show_copied"]


def copy(ctx: Context, op: Operation) -> int:
    """Copy the memory into the target, a progress line on a terminal."""
    from embornal.interfaces.cli.derived import inputs, show
    from embornal.interfaces.cli.progress import ProgressLine

    given = inputs(ctx, op)
    with ctx.open_memory() as mem, ProgressLine(ctx.err) as line:
        result = mem.copy_to(**given, progress=line.update)
    return show(ctx, op, result)


def show_copied(ctx: Context, result: Copied) -> None:
    vectors = f" and {result.vectors} vectors ({result.model})" if result.vectors else ""
    ctx.say(f"copied {result.events} events{vectors} to {result.target}")
    ctx.say("the copy verifies: its projections match its log")
