"""A purge reaches the proposals that name the purged fact (decision 0055, addendum): their
events lose their text as the fact's own do, and their rows are projected again; and the
claims that cite it (decision 0081): every event of each such claim loses its text.

The SQL is the shared builders' (``?`` placeholders, ``instr``): SQLite runs it on its
connection, PostgreSQL through its dialect (:class:`embornal.storage.postgres.db.Dialect`),
so a purge reaches as far on both (decision 0101, :func:`redact_purged`)."""

from __future__ import annotations

from datetime import datetime

from embornal.storage import eventlog, proposals_sql
from embornal.storage.connect import Connection

__all__ = ["redact_citing", "redact_naming", "redact_purged"]


def redact_purged(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: erase the purged fact's text from its own earlier events, the
    narrative versions depending on it, the proposals naming it and the claims citing it;
    return how many events were redacted. ``conn`` runs ``?``-placeholder SQL."""
    from embornal.storage.purge_narratives import redact_depending

    own = eventlog.redact_stream(conn, fact_id, purge_position, now)
    own += redact_depending(conn, fact_id, purge_position, now)
    return own + redact_naming(conn, fact_id, purge_position, now)


def redact_naming(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: erase the text of every proposal event before it that names
    ``fact_id`` (its items and title, whichever item names it: a draft's content, a
    reason, a supersede's new text), then project each such proposal again from its
    redacted stream, as a replay would; likewise the claims citing it
    (:func:`redact_citing`); return how many events were
    redacted."""
    cited = redact_citing(conn, fact_id, purge_position, now)
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason, stream_id FROM events "
        "WHERE stream_id LIKE 'proposal:%' AND position < ? AND instr(payload, ?) > 0",
        (purge_position, fact_id),
    ).fetchall()
    if not rows:
        return cited
    count = cited + eventlog.redact_rows(conn, [tuple(r)[:5] for r in rows], purge_position, now)
    for stream_id in sorted({r[5] for r in rows}):
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
