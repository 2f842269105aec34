"""The links projection (docs/model.md, Links and merges; decision 0052): its handlers and
its reads.

``fact_links`` holds one row a typed link, in its canonical direction; ``fact_merges`` the
source of each merge and its survivor. Both are written by :data:`HANDLERS` (spliced into
the projector's; plain SQL both backends run, PostgreSQL's through its dialect), in the
transaction that appends the event, rebuilt from the log by
``admin rebuild`` and checked by ``admin verify``. A link is never deleted with its
target: a forgotten, purged or merged target leaves it dangling, and
:meth:`LinkReads.dangling_rows` lists those.

Links carry no time travel: ``--at`` does not apply to them (no history table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.clock import format_time
from embornal.domain.events.base import EventType
from embornal.storage.common import history
from embornal.storage.common.event_rows import event_columns, row_to_event
from embornal.storage.common.part import StorePart
from embornal.storage.sqlite.connect import Connection

if TYPE_CHECKING:  # the handlers name their bodies; dispatch is by stored type
    from embornal.domain.events import Event
    from embornal.domain.events.graph import FactLinked, FactMerged, FactUnlinked

__all__ = ["HANDLERS", "TABLES", "VERIFY_QUERIES", "LinkReads", "LinkRow"]

#: The projection tables of the graph (rebuilt from the log, cleared before a replay).
TABLES = ("fact_links", "fact_merges")

VERIFY_QUERIES: dict[str, str] = {
    "fact_links": "SELECT source_id, relation, target_id, position, linked_at, actor "
    "FROM fact_links ORDER BY 1, 2, 3",
    "fact_merges": "SELECT source_id, survivor_id, position, merged_at FROM fact_merges ORDER BY 1",
}

LinkRow = tuple[str, str, str]  # (source id, relation, target id)


def _linked(conn: Connection, e: Event, b: FactLinked) -> None:
    conn.execute(
        "INSERT INTO fact_links (source_id, relation, target_id, position, linked_at, actor) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, relation, target_id) DO UPDATE "
        "SET position = excluded.position, linked_at = excluded.linked_at, "
        "actor = excluded.actor",
        (b.fact_id, b.relation, b.target_id, e.position, format_time(e.recorded_at), e.actor),
    )


def _unlinked(conn: Connection, e: Event, b: FactUnlinked) -> None:
    conn.execute(
        "DELETE FROM fact_links WHERE source_id = ? AND relation = ? AND target_id = ?",
        (b.fact_id, b.relation, b.target_id),
    )


def _merged(conn: Connection, e: Event, b: FactMerged) -> None:
    conn.execute(
        "INSERT INTO fact_merges (source_id, survivor_id, position, merged_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (source_id) DO UPDATE SET "
        "survivor_id = excluded.survivor_id, position = excluded.position, "
        "merged_at = excluded.merged_at",
        (b.source_id, b.fact_id, e.position, format_time(e.recorded_at)),
    )


HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    EventType.FACT_LINKED: _linked,
    EventType.FACT_UNLINKED: _unlinked,
    EventType.FACT_MERGED: _merged,
}

# A link or a merge changes no column of ``facts``: no history row for it (by type name:
# the event classes stay off the start-up path of `memory recall`).
history.NO_HISTORY.update(HANDLERS)

_CHUNK = 500
_LIVE = "f.deleted_at IS NULL AND f.purged_at IS NULL"


def _chunks(fact_ids: Sequence[str]) -> Iterator[tuple[list[str], str]]:
    """The ids, each once, in runs of at most ``_CHUNK``, each run with its ``?`` marks."""
    ids = list(dict.fromkeys(fact_ids))
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        yield chunk, ",".join("?" * len(chunk))


class LinkReads(StorePart):
    """The reads of typed links, a part of either store (``store.links``)."""

    def link_rows(
        self, fact_ids: Sequence[str], direction: str, relation: str | None = None
    ) -> list[LinkRow]:
        """The links leaving (``out``), reaching (``in``) or touching (``both``) the facts
        ``fact_ids``, as stored, of ``relation`` (None: every one); by position."""
        out: list[LinkRow] = []
        rel_sql, rel = ("", ()) if relation is None else (" AND relation = ?", (relation,))
        for chunk, marks in _chunks(fact_ids):
            parts: list[str] = []
            params: list[Any] = []
            if direction in ("out", "both"):
                parts.append(
                    "SELECT source_id, relation, target_id, position FROM fact_links "
                    f"WHERE source_id IN ({marks}){rel_sql}"
                )
                params += [*chunk, *rel]
            if direction in ("in", "both"):
                parts.append(
                    "SELECT source_id, relation, target_id, position FROM fact_links "
                    f"INDEXED BY fact_links_by_target WHERE target_id IN ({marks}){rel_sql}"
                )
                params += [*chunk, *rel]
            rows = self._store._rows(" UNION ".join(parts) + " ORDER BY 4", params)
            out += [(str(r[0]), str(r[1]), str(r[2])) for r in rows]
        return out

    def link_events(self, fact_id: str) -> list[Event]:
        """The ``FactLinked`` and ``FactUnlinked`` events of the links leaving ``fact_id``
        (its stream) or reaching it (other streams naming it as target), by position: the
        history of its links, the retracted ones too."""
        cols = event_columns("e")
        own = self._store._rows(
            f"SELECT {cols} FROM events e WHERE e.stream_id = ? "
            "AND e.type IN ('FactLinked', 'FactUnlinked') ORDER BY e.position",
            (fact_id,),
        )
        others = self._store._rows(
            f"SELECT {cols} FROM events e WHERE e.type IN ('FactLinked', 'FactUnlinked') "
            "AND e.stream_id <> ? AND instr(e.payload, ?) > 0 ORDER BY e.position",
            (fact_id, fact_id),
        )
        found = [row_to_event(r) for r in own]
        found += [e for e in map(row_to_event, others) if e.payload.get("target_id") == fact_id]
        return sorted(found, key=lambda e: e.position)

    def merged_into(self, fact_ids: Sequence[str]) -> dict[str, str]:
        """The survivor of each fact among ``fact_ids`` that was merged and is not live
        again (a restored source is its own fact once more)."""
        out: dict[str, str] = {}
        for chunk, marks in _chunks(fact_ids):
            rows = self._store._rows(
                "SELECT m.source_id, m.survivor_id FROM fact_merges m JOIN facts f "
                f"ON f.id = m.source_id WHERE m.source_id IN ({marks}) AND NOT ({_LIVE})",
                chunk,
            )
            out.update((str(r[0]), str(r[1])) for r in rows)
        return out

    def merged_sources(self, survivor_ids: Sequence[str]) -> dict[str, list[str]]:
        """The facts merged into each of ``survivor_ids`` (and not live again), by merge."""
        out: dict[str, list[str]] = {}
        for chunk, marks in _chunks(survivor_ids):
            rows = self._store._rows(
                "SELECT m.survivor_id, m.source_id FROM fact_merges m INDEXED BY "
                "fact_merges_by_survivor JOIN facts f ON f.id = m.source_id "
                f"WHERE m.survivor_id IN ({marks}) AND NOT ({_LIVE}) ORDER BY m.position",
                chunk,
            )
            for survivor, source in rows:
                out.setdefault(str(survivor), []).append(str(source))
        return out

    def dangling_rows(self, scope: ReadScope = EVERYTHING, limit: int = 100) -> list[Any]:
        """Links whose source the scope reads and whose target is no live fact (forgotten,
        purged, or missing) and was not merged into one: ``(source, relation, target,
        target state)`` by position, at most ``limit``."""
        vis = self._store._scopes.get(scope)
        return self._store._rows(
            "SELECT l.source_id, l.relation, l.target_id, CASE WHEN t.id IS NULL THEN "
            "'missing' WHEN t.purged_at IS NOT NULL THEN 'purged' ELSE 'forgotten' END "
            "FROM fact_links l JOIN facts f ON f.id = l.source_id "
            "LEFT JOIN facts t ON t.id = l.target_id "
            f"WHERE ({vis.sql}) AND (t.id IS NULL OR t.deleted_at IS NOT NULL OR "
            "t.purged_at IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM fact_merges m "
            "WHERE m.source_id = l.target_id) ORDER BY l.position LIMIT ?",
            (*vis.params, limit),
        )

    def relationship_ids(self, fact_ids: Sequence[str]) -> list[str]:
        """The ``relationship`` facts whose subject_id or object_id is among ``fact_ids``
        (the richer links of decision 0052), by creation; the caller applies its scope."""
        out: list[str] = []
        for chunk, marks in _chunks(fact_ids):
            rows = self._store._rows(
                "SELECT id FROM facts WHERE kind = 'relationship' AND "
                f"(json_extract(attributes, '$.subject_id') IN ({marks}) OR "
                f"json_extract(attributes, '$.object_id') IN ({marks})) "
                "ORDER BY created_at, id",
                [*chunk, *chunk],
            )
            out += [str(r[0]) for r in rows]
        return out
