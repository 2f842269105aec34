"""A purge reaches the narrative versions that depend on the purged fact (decision 0086),
and those resting on a claim that cites it (decision 0098: the claim was judged on the
purged words): every event of their accounts before it that names the fact or such a
claim (the version's narrate and its reviews) loses its text — the synthesis, its
coverage, the review notes and the reasons — each redaction recorded. The projections
hold no text: nothing is projected again."""

from __future__ import annotations

from datetime import datetime

from embornal.storage.sqlite import eventlog
from embornal.storage.sqlite.connect import Connection

__all__ = ["redact_depending"]


def redact_depending(conn: Connection, fact_id: str, purge_position: int, now: datetime) -> int:
    """Inside a purge: redact the narrative events before it that name ``fact_id`` or a
    claim citing it; return how many were redacted."""
    rows = conn.execute(
        "SELECT position, type, schema_version, payload, reason FROM events "
        "WHERE stream_id LIKE 'narrative:%' AND position < ? AND (instr(payload, ?) > 0 "
        "OR EXISTS (SELECT 1 FROM claim_citations c WHERE c.memory_id = ? "
        "AND instr(events.payload, '\"' || c.claim_id) > 0))",
        (purge_position, fact_id, fact_id),
    ).fetchall()
    if not rows:
        return 0
    return eventlog.redact_rows(conn, [tuple(r) for r in rows], purge_position, now)
