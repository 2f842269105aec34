"""What the subject may correct: the operations a page offers it on one fact, or storing.

A page shows a correction's form only when the subject holds what that operation's facade
method declares on the fact (decision 0179, read through the context); the
operation checks the same rights again when it runs, so this only spares the reader a
form that would be refused. Nothing is written.
"""

from __future__ import annotations

from embornal.service.context import ServiceContext

__all__ = ["CORRECTIONS", "permitted"]

#: The corrections of one fact a page may offer, each a ``Memory`` method declaring its rights.
CORRECTIONS = (
    "supersede",
    "forget",
    "restore",
    "confirm",
    "contradict",
    "pin",
    "unpin",
    "set_lifetime",
)


def permitted(ctx: ServiceContext, fact_id: str | None) -> frozenset[str]:
    """The operations of :data:`CORRECTIONS` the subject may make on ``fact_id`` (an id
    or prefix it may read; else :class:`~embornal.errors.NotFound`), or, without one,
    ``{"store"}`` when some rule lets it store a fact somewhere."""
    if fact_id is None:
        some = any(ctx.access.holds(a) for a in ("create", "write"))
        return frozenset({"store"}) if some else frozenset()
    fact = ctx.resolve(fact_id)
    return frozenset(op for op in CORRECTIONS if ctx.may(op, "fact_id", fact))
