"""A purge reaches the proposals that name the purged fact (decision 0055, addendum): their
events lose their text as the fact's own do, and their rows are projected again; and the
claims that cite it (decision 0081): every event of each such claim loses its text.
It reaches the conflicts it is a member of and the events of other facts that name it (a
contradiction by it, a link to it, its merge): their reasons, typed about it, are
redacted (decision 0134).

The SQL is the shared builders' (``?`` placeholders, ``instr``): SQLite runs it on its
connection, PostgreSQL through its dialect (:class:`embornal.storage.postgres.db.Dialect`),
so a purge reaches as far on both (decision 0101, :func:`redact_purged`)."""

from __future__ import annotations

import json
from datetime import datetime

from embornal.domain.events.base import REDACTED_REASON
from embornal.storage.common import proposals as proposals_sql
from embornal.storage.sqlite import eventlog
from embornal.storage.sqlite.connect import Connection

__all__ = ["redact_citing", "redact_conflicts", "redact_mentions", "redact_naming", "redact_purged"]

#: The events of other facts' streams that name a fact, by the payload field naming it:
#: their reasons are written about it.
MENTIONS = {
    "FactContradicted": "by_id",
    "FactLinked": "target_id",
    "FactUnlinked": "target_id",
    "FactMerged": "source_id",
}


def redact_purged(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: erase the purged fact's text from its own earlier events, the
    narrative versions depending on it, the proposals naming it and the claims citing it;
    return how many events were redacted. ``conn`` runs ``?``-placeholder SQL."""
    from embornal.storage.sqlite.purge_narratives import redact_depending

    own = eventlog.redact_stream(conn, fact_id, purge_position, now)
    own += redact_depending(conn, fact_id, purge_position, now)
    own += redact_conflicts(conn, fact_id, purge_position, now)
    own += redact_mentions(conn, fact_id, purge_position, now)
    return own + redact_naming(conn, fact_id, purge_position, now)


def redact_naming(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: erase the text of every event before it of each proposal one of
    whose events names ``fact_id`` (its items and title, whichever item names it: a
    draft's content, a reason, a supersede's new text; the reasons of its edits, approval
    or rejection), then project each such proposal again from its redacted stream, as a
    replay would; likewise the claims citing it (:func:`redact_citing`); return how many
    events were redacted."""
    cited = redact_citing(conn, fact_id, purge_position, now)
    streams = sorted(
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT stream_id FROM events "
            "WHERE stream_id LIKE 'proposal:%' AND position < ? AND instr(payload, ?) > 0",
            (purge_position, fact_id),
        ).fetchall()
    )
    if not streams:
        return cited
    count = cited
    for stream_id in streams:
        count += eventlog.redact_stream(conn, stream_id, purge_position, now)
    for stream_id in streams:
        conn.execute("DELETE FROM proposals WHERE id = ?", (stream_id.split(":", 1)[1],))
        for event in eventlog.read_stream(conn, stream_id):
            handler = proposals_sql.HANDLERS.get(event.type)
            if handler is not None:
                handler(conn, event, event.body)
    return count


def redact_citing(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: erase the text of every event before it of each claim that cites
    ``fact_id`` (its statement and attribution, every evidence text: the judgment was made
    of the purged words), each redaction recorded; return how many events were redacted.
    The projections hold no text, so nothing is projected again."""
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason FROM events "
        "WHERE stream_id IN (SELECT 'claim:' || claim_id FROM claim_citations "
        "WHERE memory_id = ?) AND position < ?",
        (fact_id, purge_position),
    ).fetchall()
    if not rows:
        return 0
    return eventlog.redact_rows(conn, [tuple(r) for r in rows], purge_position, now)


def redact_conflicts(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: the reasons of every event before it of each conflict ``fact_id``
    is a member of (why it was marked or resolved, written about the purged fact) become
    the redacted mark, in the log and in the ``conflicts`` rows, as a replay of the
    redacted streams would set them; return how many events were redacted."""
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason FROM events "
        "WHERE stream_id IN (SELECT 'conflict:' || conflict_id FROM conflict_members "
        "WHERE fact_id = ?) AND position < ? ORDER BY position",
        (fact_id, purge_position),
    ).fetchall()
    if not rows:
        return 0
    count = eventlog.redact_rows(conn, [tuple(r) for r in rows], purge_position, now)
    conn.execute(
        "UPDATE conflicts SET "
        "opened_reason = CASE WHEN opened_reason <> '' THEN ? ELSE opened_reason END, "
        "reason = CASE WHEN reason <> '' THEN ? ELSE reason END "
        "WHERE id IN (SELECT conflict_id FROM conflict_members WHERE fact_id = ?)",
        (REDACTED_REASON, REDACTED_REASON, fact_id),
    )
    return count


def redact_mentions(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: the reasons of the events before it on other facts' streams that
    name ``fact_id`` (:data:`MENTIONS`: a contradiction by it, a link to it, its merge)
    become the redacted mark; their payloads (ids, and the other fact's own evidence)
    stay. No projection holds those reasons. Return how many events were redacted."""
    marks = ", ".join("?" * len(MENTIONS))
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason FROM events "
        f"WHERE type IN ({marks}) AND stream_id <> ? AND position < ? "
        "AND instr(payload, ?) > 0 ORDER BY position",
        (*MENTIONS, fact_id, purge_position, fact_id),
    ).fetchall()
    named = [tuple(r) for r in rows if json.loads(r[3]).get(MENTIONS[r[1]]) == fact_id]
    return eventlog.redact_reasons(conn, named, purge_position, now)
