"""Who may see a fact: change its visibility (docs/model.md, Lifecycle; decision 0038).

A command on the fact's aggregate, run by :func:`~embornal.service.facts.lifecycle.on_fact`. Only
the fact's owner changes it (the aggregate decides), and it needs ``write`` and ``delete`` on
the fact: making a fact private or restricted takes it out of others' recall, as forget does.
"""

from __future__ import annotations

from dataclasses import replace

from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.spine.decisions import ChangeVisibility, decide_change_visibility
from embornal.domain.spine.justification import Visibility, as_visibility
from embornal.service.context import ServiceContext
from embornal.service.facts.lifecycle import on_fact

__all__ = ["set_visibility"]


def set_visibility(
    ctx: ServiceContext, fact_id: str, visibility: Visibility | str, *, reason: str | None
) -> Fact:
    """Set who may see a fact the subject owns and can read: ``shared``, ``private`` or
    ``restricted:alice,bob``. The fact comes back as the subject now sees it; when it no
    longer may (an assistant making its own fact private), as it was, with the new
    visibility, since the caller read it a moment ago."""
    wanted = as_visibility(visibility)
    why = check_reason(reason, required=False)
    fact = ctx.resolve(fact_id)
    ctx.require_to_rewrite(fact, "changing who may see it")
    now = ctx.now()
    command = ChangeVisibility(fact.id, wanted, ctx.subject)
    on_fact(
        ctx,
        fact.id,
        lambda s: decide_change_visibility(s, command, now),
        why,
        "changing a fact's visibility",
    )
    seen = ctx.store.get_fact(fact.id, ctx.scope())
    return seen if seen is not None else replace(fact, visibility=str(wanted))
