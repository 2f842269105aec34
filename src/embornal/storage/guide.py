"""The facts under ``/memory`` that teach an agent how to use the memory.

Written once by a data migration, as events of the ``system`` actor, owned by
``default`` and tagged ``visibility=public``.
"""

from __future__ import annotations

from embornal.domain.clock import Clock
from embornal.domain.events import ActorKind, FactStored, NewEvent
from embornal.domain.ids import new_id
from embornal.domain.tags import Tag
from embornal.storage.connect import Connection

__all__ = ["GUIDE_FACTS", "GUIDE_PATH", "guide_events", "write_guide"]

GUIDE_PATH = "/memory"

GUIDE_FACTS: tuple[str, ...] = (
    "This memory is a wiki of small facts. Each fact is one short statement stored on a "
    "path such as /projects/embornal or /people/alice. Read a path's facts with "
    "`embornal memory cat PATH` (MCP: cat).",
    "Store one fact at a time, as soon as you learn something worth keeping: "
    '`embornal memory store /projects/x "The build uses uv."` (MCP: store). Prefer many '
    "small facts over one long note.",
    'Find facts by keyword with `embornal memory recall "words"` (MCP: recall). Each hit '
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
    "(MCP: ls, tree) before you store, so related facts share a path.",
)


def guide_events(clock: Clock) -> list[NewEvent]:
    """The events that write the guide, at the clock's now (any backend appends them)."""
    now = clock.now()
    events = []
    for text in GUIDE_FACTS:
        fact_id = new_id(now)
        events.append(
            NewEvent(
                stream_id=fact_id,
                body=FactStored(
                    fact_id=fact_id,
                    path=GUIDE_PATH,
                    content=text,
                    kind="fact",
                    owner="default",
                    tags=(Tag("owner", "default"), Tag("visibility", "public")),
                    created_at=now,
                    supersedes_id=None,
                ),
                actor="system",
                actor_kind=ActorKind.SYSTEM,
                recorded_at=now,
                reason="the memory's own guide, written by the first migration",
            )
        )
    return events


def write_guide(conn: Connection, clock: Clock) -> None:
    from embornal.storage.eventlog import append

    append(conn, guide_events(clock))
