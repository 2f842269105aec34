"""The spine commands: ``memory confirm``, ``memory contradict``, ``memory evidence``.

Each changes how far a fact is trusted, not what it says, and answers with the fact's
confidence before and after (``--json``: the fact's ``show`` detail after the change).
Evidence is ``TYPE:VALUE`` (:func:`~embornal.domain.spine.parse_evidence`), one per call
as the API takes it; it is checked before the memory is opened, so bad input is one line
naming the allowed types, exit 2, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.facts import Fact
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.render import fmt_float

__all__ = ["confirm", "contradict", "evidence"]


def _checked(ctx: Context, note: str | None = None) -> None:
    """The evidence and the reason, checked as the service will (before anything opens)."""
    from embornal.domain.facts import check_reason
    from embornal.domain.spine import parse_evidence

    if ctx.opt("evidence") is not None:
        parse_evidence(ctx.opt("evidence"), note)
    check_reason(ctx.opt("reason"), required=False)


def _vouch(ctx: Context, change: Callable[[MemoryAPI], Fact]) -> int:
    with ctx.open_memory_api() as mem:
        before = mem.show(ctx.opt("id")).confidence
        fact = change(mem)
        detail = mem.show(fact.id) if ctx.json else None
    if ctx.json:
        ctx.emit(detail)
    else:
        ctx.say(f"{fact.id} confidence {fmt_float(fact.confidence)} (was {fmt_float(before)})")
    return 0


def confirm(ctx: Context) -> int:
    _checked(ctx)
    return _vouch(
        ctx,
        lambda mem: mem.confirm(
            ctx.opt("id"), evidence=ctx.opt("evidence"), reason=ctx.opt("reason")
        ),
    )


def contradict(ctx: Context) -> int:
    _checked(ctx)
    return _vouch(
        ctx,
        lambda mem: mem.contradict(
            ctx.opt("id"), by=ctx.opt("by"), evidence=ctx.opt("evidence"), reason=ctx.opt("reason")
        ),
    )


def evidence(ctx: Context) -> int:
    _checked(ctx, ctx.opt("note"))
    return _vouch(
        ctx, lambda mem: mem.add_evidence(ctx.opt("id"), ctx.opt("evidence"), note=ctx.opt("note"))
    )
