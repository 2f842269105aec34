"""The spine commands: ``memory confirm``, ``memory contradict``, ``memory evidence``.

Each changes how far a fact is trusted, not what it says, and answers with the fact's
confidence before and after (``--json``: the fact's ``show`` detail after the change).
Evidence is ``TYPE:VALUE``
(:func:`~embornal.domain.spine.justification.parse_evidence`), one per call as the API takes
it; :func:`~embornal.interfaces.cli.derived.inputs` checks it before the
memory is opened, so bad input is one line naming the allowed types, exit 2, and nothing
is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import fmt_float

if TYPE_CHECKING:
    from embornal.interfaces.catalog import Operation
    from embornal.interfaces.cli.app import Context

__all__ = ["vouch"]


def vouch(ctx: Context, op: Operation) -> int:
    """Run ``op`` (confirm, contradict, add_evidence) between two reads of the fact's
    confidence: the text says before and after, ``--json`` the fact's detail after."""
    from embornal.interfaces.catalog_types import resolve_call
    from embornal.interfaces.cli.derived import inputs

    given = inputs(ctx, op)  # the evidence and the reason checked before anything opens
    with ctx.open_memory_api() as mem:
        before = mem.show(given["fact_id"]).confidence
        fact = resolve_call(mem, str(op.call))(**given)
        detail = mem.show(fact.id) if ctx.json else None
    if ctx.json:
        ctx.emit(detail)
    else:
        ctx.say(f"{fact.id} confidence {fmt_float(fact.confidence)} (was {fmt_float(before)})")
    return 0
