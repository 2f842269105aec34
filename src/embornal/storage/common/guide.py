"""The facts under ``/memory`` that teach an agent how to use the memory.

Written once by a data migration, as events of the ``system`` actor, owned by
``default`` and tagged ``visibility=public``; a later data migration pins each and makes
it permanent (:func:`anchor_events`, decision 0154), in a new memory as in one whose guide
was written before: the first migration runs before the schema has a pin or a lifetime.

The text names the CLI's commands and no MCP tool: the ``core`` profile has no ``cat``,
``ls`` or ``tree``, and one text serves every reader. The same later migration supersedes
an earlier text that named them (:func:`rewrite_events`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from embornal.domain.clock import Clock
from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    FactStored,
    NewEvent,
)
from embornal.domain.facts.tags import Tag
from embornal.domain.guide import GUIDE_PATH
from embornal.domain.ids import new_id
from embornal.domain.records import record
from embornal.storage.sqlite.connect import Connection

__all__ = [
    "CURRENT",
    "GUIDE_FACTS",
    "GUIDE_PATH",
    "UNANCHORED",
    "GuideFact",
    "anchor_events",
    "anchor_guide",
    "guide_events",
    "guide_fact",
    "rewrite_events",
    "system_event",
    "unanchored",
    "write_guide",
]

_ANCHOR_REASON = "the memory's own guide: pinned and permanent, out of the user's listings"


@record
class GuideFact:
    """A guide fact as it is now: what :func:`anchor_events` needs to know."""

    fact_id: str
    pinned: bool = False
    user_weight: float | None = None
    lifetime: str = "standard"


GUIDE_FACTS: tuple[str, ...] = (
    "This memory is a wiki of small facts. Each fact is one short statement stored on a "
    "path such as /projects/embornal or /people/alice. Read a path's facts with "
    "`embornal memory cat PATH`.",
    "Store one fact at a time, as soon as you learn something worth keeping: "
    '`embornal memory store /projects/x "The build uses uv."`. Prefer many '
    "small facts over one long note.",
    'Find facts by keyword with `embornal memory recall "words"`. Each hit '
    "counts as a recall and makes the fact stronger; facts nobody recalls fade.",
    "Paths are lowercase; a segment starts with a letter or digit and holds letters, "
    "digits, '.', '_' and '-'. Put facts about a person under /people/NAME, about a "
    "project under /projects/NAME.",
    "Facts never change. To correct one, supersede it with a new fact "
    '(`embornal memory supersede ID "new text"`); the old one stays in the history.',
    "To remove a fact, forget it with a reason (`embornal memory forget ID --reason ...`); "
    "it leaves recall but can be restored. Purge erases content for good.",
    "Link a fact to another topic by writing [[/path]] in its content.",
    "Look around with `embornal memory ls PATH` and `embornal memory tree PATH` "
    "before you store, so related facts share a path.",
)


_EARLIER: dict[str, str] = {
    "This memory is a wiki of small facts. Each fact is one short statement stored on a "
    "path such as /projects/embornal or /people/alice. Read a path's facts with "
    "`embornal memory cat PATH` (MCP: cat).": GUIDE_FACTS[0],
    "Store one fact at a time, as soon as you learn something worth keeping: "
    '`embornal memory store /projects/x "The build uses uv."` (MCP: store). Prefer many '
    "small facts over one long note.": GUIDE_FACTS[1],
    'Find facts by keyword with `embornal memory recall "words"` (MCP: recall). Each hit '
    "counts as a recall and makes the fact stronger; facts nobody recalls fade.": GUIDE_FACTS[2],
    "Look around with `embornal memory ls PATH` and `embornal memory tree PATH` "
    "(MCP: ls, tree) before you store, so related facts share a path.": GUIDE_FACTS[7],
}
"""The guide's earlier texts that named MCP tools the ``core`` profile lacks, each with
the text that supersedes it."""


def system_event(stream_id: str, body: DomainEvent, now: datetime, reason: str) -> NewEvent:
    """An event the memory writes itself (its guide, its default rules): the ``system``
    actor's, recorded at ``now``."""
    return NewEvent(
        stream_id=stream_id,
        body=body,
        actor="system",
        actor_kind=ActorKind.SYSTEM,
        recorded_at=now,
        reason=reason,
    )


def _stored(
    fact_id: str, text: str, now: datetime, reason: str, supersedes_id: str | None = None
) -> NewEvent:
    body = FactStored(
        fact_id=fact_id,
        path=GUIDE_PATH,
        content=text,
        kind="fact",
        owner="default",
        tags=(Tag("owner", "default"), Tag("visibility", "public")),
        created_at=now,
        supersedes_id=supersedes_id,
    )
    return system_event(fact_id, body, now, reason)


def guide_events(clock: Clock) -> list[NewEvent]:
    """The events that write the guide, at the clock's now (any backend appends them)."""
    now = clock.now()
    why = "the memory's own guide, written by the first migration"
    return [_stored(new_id(now), text, now, why) for text in GUIDE_FACTS]


def rewrite_events(clock: Clock, facts: Sequence[tuple[str, str]]) -> list[NewEvent]:
    """The events that supersede each guide fact ``(id, content)`` whose text is an
    earlier one (:data:`_EARLIER`) with the text of now."""
    now = clock.now()
    why = "the guide names only what every reader can call"
    return [
        _stored(new_id(now), _EARLIER[text], now, why, supersedes_id=fact_id)
        for fact_id, text in facts
        if text in _EARLIER
    ]


def anchor_events(clock: Clock, facts: Sequence[GuideFact]) -> list[NewEvent]:
    """The events that pin each guide fact and make it permanent, less what it already is
    (each a :class:`GuideFact`: its id, pin, user weight and lifetime now)."""
    now = clock.now()
    bodies: list[tuple[str, DomainEvent]] = []
    for f in facts:
        if not f.pinned:
            bodies.append(
                (
                    f.fact_id,
                    FactImportanceAdjusted(f.fact_id, True, f.user_weight, False, f.user_weight),
                )
            )
        if f.lifetime != "permanent":
            bodies.append((f.fact_id, FactLifetimeChanged(f.fact_id, "permanent", f.lifetime)))
    return [system_event(fact_id, body, now, _ANCHOR_REASON) for fact_id, body in bodies]


_SYSTEM_GUIDE = (
    "FROM facts f JOIN paths p ON p.id = f.path_id WHERE p.path = ? AND f.deleted_at IS NULL "
    "AND f.superseded_by IS NULL AND f.purged_at IS NULL AND f.id IN (SELECT e.stream_id "
    "FROM events e WHERE e.version = 1 AND e.type = 'FactStored' AND e.actor = 'system')"
)
CURRENT = f"SELECT f.id, f.content {_SYSTEM_GUIDE} ORDER BY f.seq"
"""The live guide facts the ``system`` actor wrote, with their text (both backends)."""
UNANCHORED = (
    "SELECT f.id, f.pinned, f.user_weight, f.lifetime, f.lifetime_until "
    f"{_SYSTEM_GUIDE} AND (f.pinned = 0 OR f.lifetime <> 'permanent') ORDER BY f.seq"
)
"""Those of them not yet pinned and permanent, with their pin and lifetime."""


def unanchored(conn: Connection) -> list[GuideFact]:
    """The guide facts :data:`UNANCHORED` finds (SQLite)."""
    return [guide_fact(*r) for r in conn.execute(UNANCHORED, (GUIDE_PATH,)).fetchall()]


def guide_fact(
    fact_id: str, pinned: object, weight: float | None, lifetime: str | None, until: str | None
) -> GuideFact:
    """A row of :data:`UNANCHORED` as a :class:`GuideFact` (either backend)."""
    policy = lifetime or "standard"
    text = f"until:{until[:10]}" if policy == "until" and until else policy
    return GuideFact(fact_id, bool(pinned), weight, text)


def write_guide(conn: Connection, clock: Clock) -> None:
    from embornal.storage.sqlite.eventlog import append

    append(conn, guide_events(clock))


def anchor_guide(conn: Connection, clock: Clock) -> None:
    """Rewrite the guide's earlier texts, then pin each guide fact and make it permanent
    (SQLite; decision 0154)."""
    from embornal.storage.sqlite.eventlog import append

    append(conn, rewrite_events(clock, conn.execute(CURRENT, (GUIDE_PATH,)).fetchall()))
    append(conn, anchor_events(clock, unanchored(conn)))
