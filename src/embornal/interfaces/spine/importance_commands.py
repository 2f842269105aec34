"""The importance and lifetime commands: ``memory pin``, ``unpin``, ``weight``,
``lifetime`` (:func:`change`) and ``memory due``'s text (:func:`show_due`).

Their parsers come from the catalogue (:mod:`.derived`). Each change answers with the
fact's importance or lifetime (``--json``: the fact's ``show`` detail after the change).
A weight (0..1, or ``none``) and a lifetime (``permanent``, ``standard``, ``ephemeral``,
``until:YYYY-MM-DD`` from today on) are read by the derived converters of their input
types, so bad input is one line naming the allowed values, exit 2, and nothing is
written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import fmt_float, one_line

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.interfaces.catalog import Operation
    from embornal.interfaces.cli.app import Context
    from embornal.service.results import DueFact

__all__ = ["change", "show_due"]


def _importance(fact: Fact) -> str:
    parts = ["pinned" if fact.pinned else "not pinned"]
    parts.append(
        "no weight" if fact.user_weight is None else f"weight {fmt_float(fact.user_weight)}"
    )
    parts.append(f"lifetime {fact.lifetime}")
    return ", ".join(parts)


def change(ctx: Context, op: Operation) -> int:
    """Run ``op`` (pin, unpin, set_weight, set_lifetime): the text says the fact's
    importance after it, ``--json`` the fact's detail after it."""
    from embornal.interfaces.catalog_types import resolve_call
    from embornal.interfaces.cli.derived import inputs

    given = inputs(ctx, op)  # the reason checked before anything opens
    with ctx.open_memory_api() as mem:
        fact: Fact = resolve_call(mem, str(op.call))(**given)
        detail = mem.show(fact.id) if ctx.json else None
    if ctx.json:
        ctx.emit(detail)
    else:
        ctx.say(f"{fact.id} {_importance(fact)}")
    ctx.warn(fact.warnings)  # a pin past the soft anchor limit
    return 0


def show_due(ctx: Context, found: list[DueFact]) -> None:
    """The stale facts, each on two lines: its id, path and confidences, then its text."""
    from embornal.domain.clock import format_time

    def show(d: DueFact) -> str:
        since = format_time(d.since, micro=False)
        return (
            f"{d.fact.id} {d.fact.path}  c_eff {fmt_float(d.c_eff)} < {fmt_float(d.threshold)}"
            f"  (c {fmt_float(d.confidence)}, since {since})\n  {one_line(d.fact.content)}"
        )

    ctx.say_each(found, "nothing is due: every fact was confirmed recently enough", show)
