"""The importance and lifetime commands: ``memory pin``, ``unpin``, ``weight``,
``lifetime`` and ``due`` (and the check of ``memory store --lifetime``).

Each change answers with the fact's importance or lifetime (``--json``: the fact's
``show`` detail after the change). A weight (0..1, or ``none``) and a lifetime
(``permanent``, ``standard``, ``ephemeral``, ``until:YYYY-MM-DD`` from today on) are
checked before the memory is opened: bad input is one line naming the allowed values,
exit 2, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from embornal.domain.facts import Fact
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.render import fmt_float, one_line

__all__ = ["checked_lifetime", "due", "lifetime", "pin", "unpin", "weight"]


def checked_lifetime(text: str) -> str:
    """``text`` as a lifetime, refused (exit 2) when unknown or an ``until`` in the past."""
    from embornal.domain.spine import check_lifetime

    return str(check_lifetime(text, now=datetime.now(UTC)))


def _reason(ctx: Context) -> str | None:
    from embornal.domain.facts import check_reason

    return check_reason(ctx.opt("reason"), required=False)


def _importance(fact: Fact) -> str:
    parts = ["pinned" if fact.pinned else "not pinned"]
    parts.append(
        "no weight" if fact.user_weight is None else f"weight {fmt_float(fact.user_weight)}"
    )
    parts.append(f"lifetime {fact.lifetime}")
    return ", ".join(parts)


def _change(ctx: Context, change: Callable[[MemoryAPI], Fact]) -> int:
    with ctx.open_memory_api() as mem:
        fact = change(mem)
        detail = mem.show(fact.id) if ctx.json else None
    if ctx.json:
        ctx.emit(detail)
    else:
        ctx.say(f"{fact.id} {_importance(fact)}")
    return 0


def pin(ctx: Context) -> int:
    why = _reason(ctx)
    return _change(ctx, lambda mem: mem.pin(ctx.opt("id"), reason=why))


def unpin(ctx: Context) -> int:
    why = _reason(ctx)
    return _change(ctx, lambda mem: mem.unpin(ctx.opt("id"), reason=why))


def weight(ctx: Context) -> int:
    from embornal.domain.spine import check_weight

    raw = str(ctx.opt("weight")).strip()
    value = None if raw.lower() in ("none", "-") else check_weight(raw)
    why = _reason(ctx)
    return _change(ctx, lambda mem: mem.set_weight(ctx.opt("id"), value, reason=why))


def lifetime(ctx: Context) -> int:
    text = checked_lifetime(ctx.opt("lifetime"))
    why = _reason(ctx)
    return _change(ctx, lambda mem: mem.set_lifetime(ctx.opt("id"), text, reason=why))


def due(ctx: Context) -> int:
    from embornal.domain.clock import format_time
    from embornal.domain.paths import normalize_path

    under = ctx.opt("under")
    under = None if under is None else normalize_path(under)
    with ctx.open_memory_api() as mem:
        found = mem.due(limit=ctx.opt("limit"), under=under)
    if ctx.json:
        ctx.emit(found)
        return 0
    if not found:
        ctx.say("nothing is due: every fact was confirmed recently enough")
        return 0
    for d in found:
        since = format_time(d.since, micro=False)
        ctx.say(
            f"{d.fact.id} {d.fact.path}  c_eff {fmt_float(d.c_eff)} < {fmt_float(d.threshold)}"
            f"  (c {fmt_float(d.confidence)}, since {since})"
        )
        ctx.say(f"  {one_line(d.fact.content)}")
    return 0
