"""memory-as-history's SQLite database, read only: its ``memories`` (content, source,
status, tier, frame, sensitivity, consolidation and forgetting with their reasons),
``anchors`` (pins and their reasons), ``corroborations`` (sources), ``audit_log``
(every decision and its reason), ``narratives`` (versions, the memories they draw on)
and the active ``memory_links``. Columns added in later versions are read when present.
A file that is not a SQLite database, one without the ``memories`` and ``audit_log``
tables, a table without a column it needs, a row without an id or content, or two
memories (or narratives) of one id, stops the read naming it."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from typing import Any

from embornal.adapters.importers.common import existing
from embornal.domain.portability.import_history import (
    HistoryData,
    HistoryMemory,
    HistoryNarrative,
    memory_ids,
)
from embornal.domain.portability.import_mapping import refuse, whole_text

__all__ = ["REQUIRED_TABLES", "read_database"]

REQUIRED_TABLES = ("memories", "audit_log")


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}


def _rows(
    db: sqlite3.Connection,
    table: str,
    wanted: tuple[str, ...],
    order: str,
    tables: set[str],
    required: int = 2,
) -> list[dict[str, Any]]:
    """The rows of ``table`` (none when it is absent), its ``required`` first columns
    required, the others read when present."""
    if table not in tables:
        return []
    have = _columns(db, table)
    lacking = [c for c in (*wanted[:required], order.split(",")[0]) if c not in have]
    if lacking:
        raise refuse(f"the {table} table", f"it has no {lacking[0]} column")
    picked = [c for c in wanted if c in have]
    sql = f"SELECT {', '.join(picked)} FROM {table} ORDER BY {order}"
    rows = [dict(zip(picked, row, strict=True)) for row in db.execute(sql)]
    for n, row in enumerate(rows, 1):
        whole_text(row, f"{table} row {n}")
    return rows


def _text(row: dict[str, Any], key: str) -> str | None:
    value = row.get(key)
    return None if value is None else str(value)


def read_database(source: str) -> HistoryData:
    path = existing(source, directory=False, what="the memory.db of memory-as-history")
    where = str(path)
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        raise refuse(where, "the file cannot be opened as a SQLite database") from None
    try:
        return _read(db, where)
    except sqlite3.DatabaseError as e:
        raise refuse(where, f"not a readable memory-as-history database ({e})") from None
    finally:
        db.close()


def _read(db: sqlite3.Connection, where: str) -> HistoryData:
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        raise refuse(
            where, f"the database has no {missing[0]} table: it is not memory-as-history's"
        )
    need = {"id", "content", "created_at"} - _columns(db, "memories")
    if need:
        raise refuse(where, f"the memories table has no {sorted(need)[0]} column")
    cols = (
        "id",
        "content",
        "created_at",
        "source",
        "status",
        "tier",
        "frame",
        "security_sensitive",
        "consolidated_at",
        "consolidation_reason",
        "forgotten_at",
        "forgotten_reason",
        "event_at",
        "session_id",
    )
    pins = {
        str(r["memory_id"]): r
        for r in _rows(db, "anchors", ("memory_id", "reason", "pinned_at"), "pinned_at", tables)
    }
    memories: list[HistoryMemory] = []
    rows: dict[str, int] = {}
    for n, r in enumerate(_rows(db, "memories", cols, "created_at, id", tables, 3), 1):
        mid, content = _text(r, "id"), _text(r, "content")
        if not mid or not mid.strip():
            raise refuse(f"memories row {n}", "the memory has no id")
        if mid in rows:
            raise refuse(
                f"memories row {n}",
                f"the id {mid[:80]!r} is also that of row {rows[mid]}: one memory per id",
            )
        rows[mid] = n
        if not content or not content.strip():
            raise refuse(f"memory {mid}", "the memory has no content")
        pin = pins.get(mid, {})
        memories.append(
            HistoryMemory(
                mid,
                content.strip(),
                _text(r, "created_at") or "",
                _text(r, "source"),
                _text(r, "status"),
                _text(r, "tier"),
                _text(r, "frame"),
                bool(r.get("security_sensitive")),
                _text(r, "consolidated_at"),
                _text(r, "consolidation_reason"),
                _text(r, "forgotten_at"),
                _text(r, "forgotten_reason"),
                _text(pin, "reason"),
                _text(pin, "pinned_at"),
                _text(r, "event_at"),
                _text(r, "session_id"),
            )
        )
    corroborations: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in _rows(db, "corroborations", ("memory_id", "source", "at"), "at", tables):
        corroborations[str(r["memory_id"])].append((str(r["source"]), _text(r, "at") or ""))
    audit: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for r in _rows(db, "audit_log", ("memory_id", "action", "reason", "at"), "at", tables, 3):
        audit[str(r["memory_id"])].append(
            (str(r["action"]), _text(r, "reason") or "", _text(r, "at") or "")
        )
    narratives = []
    wanted = (
        "id",
        "content",
        "reason",
        "memory_ids",
        "created_at",
        "superseded_at",
        "superseded_by",
        "scope",
    )
    named: set[str] = set()
    for r in _rows(db, "narratives", wanted, "created_at, id", tables):
        nid = _text(r, "id") or ""
        if not nid.strip() or not (_text(r, "content") or "").strip():
            raise refuse(f"narrative {nid or '?'}", "the narrative has no id or no content")
        if nid in named:
            raise refuse(f"narrative {nid[:80]}", "another narrative has the same id")
        named.add(nid)
        narratives.append(
            HistoryNarrative(
                nid,
                str(r["content"]).strip(),
                _text(r, "reason"),
                _text(r, "created_at"),
                memory_ids(r.get("memory_ids"), f"narrative {nid}"),
                _text(r, "superseded_at"),
                _text(r, "superseded_by"),
                _text(r, "scope"),
            )
        )
    links = [
        (str(r["from_id"]), str(r["to_id"]), str(r["relation"]), _text(r, "reason") or "")
        for r in _rows(
            db,
            "memory_links",
            ("from_id", "to_id", "relation", "reason", "created_at", "retired_at"),
            "created_at",
            tables,
            3,
        )
        if r.get("retired_at") is None
    ]
    return HistoryData(
        tuple(memories),
        {k: tuple(v) for k, v in corroborations.items()},
        {k: tuple(v) for k, v in audit.items()},
        tuple(narratives),
        tuple(links),
    )
