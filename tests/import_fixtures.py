"""A small memory-as-history database, written from the schema that tool documents
(memories, anchors, corroborations, audit_log, narratives), for the import tests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

__all__ = ["FIXTURES", "make_history_db"]

FIXTURES = Path(__file__).parent / "fixtures" / "importers"

_TABLES = """
CREATE TABLE memories (
    id TEXT PRIMARY KEY, content TEXT NOT NULL, source TEXT,
    status TEXT NOT NULL DEFAULT 'working', tier TEXT NOT NULL DEFAULT 'archive',
    created_at TEXT NOT NULL, consolidated_at TEXT, consolidation_reason TEXT,
    last_reviewed_at TEXT, review_status TEXT, forgotten_at TEXT, forgotten_reason TEXT,
    security_sensitive INTEGER NOT NULL DEFAULT 0, frame TEXT, content_tokens TEXT
);
CREATE TABLE anchors (memory_id TEXT PRIMARY KEY, reason TEXT NOT NULL, pinned_at TEXT NOT NULL);
CREATE TABLE corroborations (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, source TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TABLE audit_log (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, action TEXT NOT NULL,
    reason TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TABLE narratives (
    id TEXT PRIMARY KEY, content TEXT NOT NULL, reason TEXT NOT NULL, memory_ids TEXT,
    created_at TEXT NOT NULL, superseded_at TEXT, superseded_by TEXT
);
"""


def make_history_db(path: Path, *, tables: bool = True) -> Path:
    """Three memories (one consolidated, pinned and corroborated; one forgotten; one
    framed interpretation), their audit entries, and two versions of a narrative."""
    db = sqlite3.connect(path)
    if not tables:
        db.execute("CREATE TABLE notes (id TEXT)")
        db.commit()
        db.close()
        return path
    db.executescript(_TABLES)
    t = "2025-05-0{}T10:00:00+00:00".format
    _insert(
        db,
        "memories",
        [
            {
                "id": "a1b2c3d4e5f6",
                "content": "The user prefers tea to coffee.",
                "source": "user",
                "status": "consolidated",
                "tier": "testimony",
                "created_at": t(1),
                "consolidated_at": t(2),
                "consolidation_reason": "said twice",
            },
            {
                "id": "0f9e8d7c6b5a",
                "content": "The launch is on Friday.",
                "source": "standup",
                "status": "working",
                "tier": "archive",
                "created_at": t(1),
                "forgotten_at": t(3),
                "forgotten_reason": "the launch moved",
            },
            {
                "id": "123456abcdef",
                "content": "The team likes short reviews.",
                "status": "working",
                "tier": "interpretation",
                "created_at": t(2),
                "security_sensitive": 1,
                "frame": "Team Alpha",
            },
        ],
    )
    db.execute("INSERT INTO anchors VALUES ('a1b2c3d4e5f6', 'identity', ?)", (t(2),))
    db.execute("INSERT INTO corroborations VALUES ('c1', 'a1b2c3d4e5f6', 'chat 2', ?)", (t(2),))
    db.executemany(
        "INSERT INTO audit_log VALUES (?, ?, ?, ?, ?)",
        [
            ("l1", "a1b2c3d4e5f6", "promote", "said twice", t(2)),
            ("l2", "a1b2c3d4e5f6", "pin", "identity", t(2)),
            ("l3", "0f9e8d7c6b5a", "forget", "the launch moved", t(3)),
        ],
    )
    _insert(
        db,
        "narratives",
        [
            {
                "id": "n1",
                "content": "A tea drinker.",
                "reason": "first account",
                "memory_ids": json.dumps(["a1b2c3d4e5f6"]),
                "created_at": t(2),
                "superseded_at": t(4),
                "superseded_by": "n2",
            },
            {
                "id": "n2",
                "content": "A tea drinker on a short-review team.",
                "reason": "more seen",
                "memory_ids": json.dumps(["a1b2c3d4e5f6", "123456abcdef", "ffffffffffff"]),
                "created_at": t(4),
            },
        ],
    )
    db.commit()
    db.close()
    return path


def _insert(db: sqlite3.Connection, table: str, rows: list[dict[str, object]]) -> None:
    """Insert ``rows`` by column name; a column a row leaves out takes its default."""
    for row in rows:
        marks = ", ".join("?" * len(row))
        db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})", tuple(row.values()))
