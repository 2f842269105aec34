"""Projections: how each event changes the tables that answer queries.

``apply`` runs inside the transaction that appends the event, so the log and
the projections never disagree; ``embornal admin rebuild`` runs the same code
over the whole log.
"""

from __future__ import annotations

import json
from typing import Any

from embornal.domain import paths as P
from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import Event, EventType
from embornal.domain.strength import INITIAL_STABILITY_DAYS, Signals, reinforce
from embornal.domain.text import fts_document
from embornal.storage.connect import Connection

__all__ = ["PROJECTION_TABLES", "apply", "clear_projections", "ensure_path"]

# Tables rebuilt from the log, in the order they are cleared (children first).
PROJECTION_TABLES = (
    "fact_tags",
    "path_tags",
    "facts",
    "path_closure",
    "paths",
    "casbin_rule",
    "tokens",
)


def ensure_path(conn: Connection, path: str) -> int:
    """The id of ``path`` (normalized), creating it and every missing ancestor."""
    row = conn.execute("SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
    if row is not None:
        return int(row[0])
    parent = P.parent_of(path)
    assert parent is not None  # the root always exists
    parent_id = ensure_path(conn, parent)
    depth = len(P.segments(path))
    cur = conn.execute(
        "INSERT INTO paths (parent_id, name, path, depth) VALUES (?, ?, ?, ?)",
        (parent_id, P.name_of(path), path, depth),
    )
    new_id = int(cur.lastrowid)
    conn.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) "
        "SELECT ancestor_id, ?, ancestor_depth FROM path_closure WHERE descendant_id = ? "
        "UNION ALL SELECT ?, ?, ?",
        (new_id, parent_id, new_id, new_id, depth),
    )
    return new_id


def _fts_insert(conn: Connection, seq: int, content: str) -> None:
    conn.execute("INSERT INTO facts_fts (rowid, body) VALUES (?, ?)", (seq, fts_document(content)))
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'fts_docs'")


def _fact_stored(conn: Connection, e: Event) -> None:
    p = e.payload
    path_id = ensure_path(conn, p["path"])
    attributes = p.get("attributes")
    cur = conn.execute(
        "INSERT INTO facts (id, path_id, content, kind, attributes, owner, created_at, "
        "recorded_at, stability_days, supersedes_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            p["fact_id"],
            path_id,
            p.get("content") or "",
            p.get("kind", "fact"),
            json.dumps(attributes, sort_keys=True) if attributes else None,
            p["owner"],
            p["created_at"],
            format_time(e.recorded_at),
            INITIAL_STABILITY_DAYS,
            p.get("supersedes_id"),
        ),
    )
    seq = int(cur.lastrowid)
    conn.executemany(
        "INSERT INTO fact_tags (fact_id, key, value) VALUES (?, ?, ?)",
        [(p["fact_id"], k, v) for k, v in p.get("tags", [])],
    )
    _fts_insert(conn, seq, p.get("content") or "")
    if p.get("supersedes_id"):
        conn.execute(
            "UPDATE facts SET superseded_by = ? WHERE id = ?", (p["fact_id"], p["supersedes_id"])
        )


def _set_superseder(conn: Connection, fact_id: str, live: bool) -> None:
    """A forgotten superseder gives its old fact back; a restored one takes it again."""
    row = conn.execute("SELECT supersedes_id FROM facts WHERE id = ?", (fact_id,)).fetchone()
    if row is None or row[0] is None:
        return
    if live:
        conn.execute("UPDATE facts SET superseded_by = ? WHERE id = ?", (fact_id, row[0]))
    else:
        conn.execute(
            "UPDATE facts SET superseded_by = NULL WHERE id = ? AND superseded_by = ?",
            (row[0], fact_id),
        )


def _fact_forgotten(conn: Connection, e: Event) -> None:
    fid = e.payload["fact_id"]
    conn.execute("UPDATE facts SET deleted_at = ? WHERE id = ?", (format_time(e.recorded_at), fid))
    _set_superseder(conn, fid, live=False)


def _fact_restored(conn: Connection, e: Event) -> None:
    fid = e.payload["fact_id"]
    conn.execute("UPDATE facts SET deleted_at = NULL WHERE id = ?", (fid,))
    _set_superseder(conn, fid, live=True)


def _fact_purged(conn: Connection, e: Event) -> None:
    fid = e.payload["fact_id"]
    row = conn.execute("SELECT seq, deleted_at FROM facts WHERE id = ?", (fid,)).fetchone()
    if row is None:
        return
    when = format_time(e.recorded_at)
    conn.execute("DELETE FROM facts_fts WHERE rowid = ?", (row[0],))
    conn.execute("UPDATE counters SET value = value - 1 WHERE name = 'fts_docs'")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'facts_vec'").fetchone():
        conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (row[0],))
    conn.execute("DELETE FROM fact_tags WHERE fact_id = ? AND key <> 'owner'", (fid,))
    conn.execute("DELETE FROM fact_pieces WHERE fact_id = ?", (fid,))
    conn.execute(
        "UPDATE facts SET content = '', attributes = NULL, embedding = NULL, purged_at = ?, "
        "deleted_at = coalesce(deleted_at, ?) WHERE id = ?",
        (when, when, fid),
    )
    _set_superseder(conn, fid, live=False)


def _facts_recalled(conn: Connection, e: Event) -> None:
    at = parse_time(e.payload["at"])
    ids = e.payload["fact_ids"]
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT id, created_at, last_recall_at, recall_count, stability_days "
        f"FROM facts WHERE id IN ({marks})",
        ids,
    ).fetchall()
    updates: list[tuple[Any, ...]] = []
    for r in rows:
        before = Signals(
            parse_time(r[1]), parse_time(r[2]) if r[2] else None, int(r[3]), float(r[4])
        )
        after = reinforce(before, at)
        assert after.last_recall_at is not None
        updates.append(
            (format_time(after.last_recall_at), after.recall_count, after.stability_days, r[0])
        )
    conn.executemany(
        "UPDATE facts SET last_recall_at = ?, recall_count = ?, stability_days = ? WHERE id = ?",
        updates,
    )


def _path_tagged(conn: Connection, e: Event) -> None:
    path_id = ensure_path(conn, e.payload["path"])
    conn.executemany(
        "INSERT INTO path_tags (path_id, tagger, key, value) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (path_id, tagger, key) DO UPDATE SET value = excluded.value",
        [(path_id, e.actor, k, v) for k, v in e.payload["tags"]],
    )


def _path_untagged(conn: Connection, e: Event) -> None:
    row = conn.execute("SELECT id FROM paths WHERE path = ?", (e.payload["path"],)).fetchone()
    if row is None:
        return
    conn.executemany(
        "DELETE FROM path_tags WHERE path_id = ? AND tagger = ? AND key = ?",
        [(row[0], e.actor, k) for k in e.payload["keys"]],
    )


def _rule_values(values: list[str]) -> tuple[str, ...]:
    padded = [*values, "", "", "", "", "", ""][:6]
    return tuple(padded)


def _policy_added(conn: Connection, e: Event) -> None:
    conn.execute(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (e.payload["ptype"], *_rule_values(e.payload["values"])),
    )
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _policy_removed(conn: Connection, e: Event) -> None:
    conn.execute(
        "DELETE FROM casbin_rule WHERE ptype = ? AND v0 = ? AND v1 = ? AND v2 = ? AND v3 = ? "
        "AND v4 = ? AND v5 = ?",
        (e.payload["ptype"], *_rule_values(e.payload["values"])),
    )
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _token_issued(conn: Connection, e: Event) -> None:
    p = e.payload
    conn.execute(
        "INSERT INTO tokens (id, subject, name, token_hash, created_at, expires_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            p["token_id"],
            p["subject"],
            p.get("name"),
            p["token_hash"],
            format_time(e.recorded_at),
            p.get("expires_at"),
        ),
    )


def _token_revoked(conn: Connection, e: Event) -> None:
    conn.execute(
        "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        (format_time(e.recorded_at), e.payload["token_id"]),
    )


_HANDLERS = {
    EventType.FACT_STORED: _fact_stored,
    EventType.FACT_FORGOTTEN: _fact_forgotten,
    EventType.FACT_RESTORED: _fact_restored,
    EventType.FACT_PURGED: _fact_purged,
    EventType.FACTS_RECALLED: _facts_recalled,
    EventType.PATH_TAGGED: _path_tagged,
    EventType.PATH_UNTAGGED: _path_untagged,
    EventType.POLICY_ADDED: _policy_added,
    EventType.POLICY_REMOVED: _policy_removed,
    EventType.TOKEN_ISSUED: _token_issued,
    EventType.TOKEN_REVOKED: _token_revoked,
}


def apply(conn: Connection, event: Event) -> None:
    """Apply one event to the projections (unknown types are ignored: newer writers)."""
    try:
        handler = _HANDLERS[EventType(event.type)]
    except ValueError:
        return
    handler(conn, event)


def clear_projections(conn: Connection) -> None:
    """Empty every projection (keeping the root path) before a replay."""
    conn.execute("DELETE FROM facts_fts")
    conn.execute("UPDATE counters SET value = 0 WHERE name IN ('fts_docs', 'policy_version')")
    for table in PROJECTION_TABLES:
        conn.execute(f"DELETE FROM {table}")
    conn.execute(
        "INSERT INTO paths (id, parent_id, name, path, depth) VALUES (1, NULL, '', '/', 0)"
    )
    conn.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) VALUES (1, 1, 0)"
    )
