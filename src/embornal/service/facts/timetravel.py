"""Time travel: the reads of recall, cat, ls, tree, show and find as the memory was at a
past time (``as_of``; decisions 0040-0042).

``as_of`` is parsed by :func:`embornal.domain.as_of.parse_as_of` against the context's
clock (a time after now is refused) and answered by the store's
:class:`~embornal.storage.contract.store.PastReads` at that time, from the history tables. What
the subject may read is decided as now. Strength is the strength at that time, from the
recalls recorded by then; a read that looks back never counts as a recall.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import format_time
from embornal.domain.spine.strength import strength
from embornal.errors import NotFound
from embornal.hints import TYPE_CHECKING
from embornal.service.context import ServiceContext

if TYPE_CHECKING:
    from embornal.service.facts.details import FactDetail
    from embornal.storage.contract.store import PastReads, Store

__all__ = ["AsOf", "looking_back", "show_at"]

AsOf = datetime | str | None
"""A time to look back to: a datetime (naive: UTC) or text in one of the accepted forms."""


def looking_back(ctx: ServiceContext, as_of: AsOf) -> tuple[Store | PastReads, datetime]:
    """The reads to answer from and the moment they stand for: the store and now, or the
    memory at ``as_of`` and that time."""
    now = ctx.now()
    if as_of is None:
        return ctx.store, now
    from embornal.domain.as_of import parse_as_of  # off the start-up path of a plain read

    at = parse_as_of(as_of, now)
    return ctx.store.as_of(at), at


def show_at(ctx: ServiceContext, fact_id: str, as_of: AsOf) -> FactDetail:
    """The fact whole as it was at ``as_of``: its state, attributes, tags, confidence,
    evidence and the events recorded by then; ``c_eff``, ``stale`` and strength then."""
    from embornal.domain.facts.links import extract_links
    from embornal.domain.spine import confidence as C
    from embornal.service.facts.details import FactDetail
    from embornal.service.shown_events import shown_events
    from embornal.storage.contract.store import Store

    reads, at = looking_back(ctx, as_of)  # a bad time first: nothing else is looked at
    fact = ctx.resolve(fact_id)
    assert not isinstance(reads, Store)
    then = reads.get_fact(fact.id, ctx.scope())
    if then is None:
        history = f"`embornal memory history {fact.id}` lists its events."
        if fact.purged_at is not None:
            raise NotFound(f"fact {fact.id} was purged: its past is erased too", hint=history)
        raise NotFound(
            f"fact {fact.id} was not stored yet at {format_time(at)}",
            hint=f"Look at a later time; {history}",
        )
    since = C.anchor(then.last_confirmed_at, then.created_at)
    confidence = then.confidence if then.confidence is not None else C.prior("person")
    status = then.attributes.get("status")
    return FactDetail(
        fact=then,
        strength=strength(then.signals, at),
        effective_tags=tuple(reads.effective_tags(fact.id)),
        links=tuple(extract_links(then.content)),
        events=tuple(
            shown_events(ctx, (e for e in ctx.store.stream(fact.id) if e.recorded_at <= at))
        ),
        confidence=then.confidence,
        c_eff=C.effective(confidence, then.kind, since, at),
        stale=C.is_stale(
            confidence, then.kind, since, at, status=status if isinstance(status, str) else None
        ),
        last_confirmed_at=then.last_confirmed_at,
        evidence=reads.evidence(fact.id),
        pinned=then.pinned,
        user_weight=then.user_weight,
        lifetime=then.lifetime,
        expires_at=then.expires_at,
        expired=then.expired(at),
        as_of=at,
    )
