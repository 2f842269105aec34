"""Kinds: update a fact's attributes, find facts by kind and attributes, list the kinds.

An attribute update changes what a fact says, so it takes the rights a supersede takes:
``write`` on the fact and ``delete`` on it (the owner's right by the default rules). It is
decided by :func:`~embornal.domain.facts.aggregate.decide_update` on the fact's state and
appended at that state's version (retried on a concurrent write, decision 0026).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.facts.aggregate import UpdateAttributes, decide_update
from embornal.domain.facts.attributes import parse_where
from embornal.domain.facts.fact import Fact, check_reason
from embornal.domain.paths import normalize_path
from embornal.service.context import ServiceContext, check_limit
from embornal.service.facts.lifecycle import decided
from embornal.service.facts.timetravel import AsOf, looking_back

__all__ = ["find", "kinds", "update"]


def update(
    ctx: ServiceContext,
    fact_id: str,
    attributes: Mapping[str, object | None],
    *,
    reason: str | None,
) -> Fact:
    """Change some attributes of an active fact (None removes an optional one); the
    result is validated whole. Nothing changes, and nothing is written, when every value
    is already the fact's."""
    why = check_reason(reason, required=False)
    fact = ctx.resolve(fact_id)
    ctx.require_to_rewrite(fact, f"updating fact {fact.id} changes what it says")
    command = UpdateAttributes(fact.id, attributes)
    return decided(ctx, fact.id, command, decide_update, why, "updating attributes")


def find(
    ctx: ServiceContext,
    kind: str,
    where: Mapping[str, str] | Sequence[str],
    *,
    under: str | None,
    limit: int | None,
    as_of: AsOf = None,
) -> list[Fact]:
    """The live facts of ``kind`` the subject may read whose attributes equal ``where``,
    oldest first (at most ``limit``, default and cap :data:`MAX_LIMIT`); at ``as_of``: the
    facts live then whose attributes then matched."""
    from embornal.domain.kinds.registry import KINDS

    name = KINDS.check_kind(kind)
    conditions = parse_where(name, where)
    n = check_limit(limit, MAX_LIMIT)
    scope_under = None if under is None else normalize_path(under)
    reads, _ = looking_back(ctx, as_of)
    return reads.find_by_kind(name, conditions, ctx.scope(), under=scope_under, limit=n)


def kinds(ctx: ServiceContext) -> list[dict[str, Any]]:
    """Every kind's schema: version, summary, fields (type, required, vocabulary,
    bounds) and rules."""
    from embornal.domain.kinds.registry import KINDS

    return KINDS.describe()
