"""The reads of conflicts and of entity keys (the store's ``ConflictReads``), on both
backends: PostgreSQL runs the same SQL through its dialect (``group_concat`` as
``string_agg``, :func:`embornal.storage.postgres.db.pg_sql`).

Each function takes ``rows(sql, params)``, the store's read (its own connection, or the
write connection inside a unit of work, so a detection at store sees the facts just
appended). :class:`ConflictQueries` gives them to the store as methods: one of its query
parts, loaded when first used (decision 0094).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from embornal.domain.clock import parse_time
from embornal.domain.conflicts.aggregate import ConflictClass, ConflictState, Outcome
from embornal.storage.common.part import StorePart, given_terms

__all__ = ["ConflictQueries", "conflict_states", "entity_groups", "fact_texts", "key_matches"]

Rows = Callable[[str, Sequence[Any]], list[Any]]

_LIVE = "f.deleted_at IS NULL AND f.superseded_by IS NULL AND f.purged_at IS NULL"
_CHUNK = 500


def key_matches(rows: Rows, keys: Sequence[str], exclude: str, limit: int) -> list[str]:
    """Live facts (ids, oldest first) holding any of ``keys``, but ``exclude``."""
    out: dict[str, None] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = list(keys[start : start + _CHUNK])
        marks = ",".join("?" * len(chunk))
        for r in rows(
            f"SELECT k.fact_id FROM entity_keys k JOIN facts f ON f.id = k.fact_id "
            f"WHERE k.key IN ({marks}) AND k.fact_id <> ? AND {_LIVE} "
            "GROUP BY k.fact_id, f.created_at ORDER BY f.created_at, k.fact_id LIMIT ?",
            (*chunk, exclude, limit),
        ):
            out.setdefault(r[0], None)
    return list(out)[:limit]


def entity_groups(rows: Rows, largest: int) -> list[tuple[str, ...]]:
    """The live facts sharing each key, for keys that two to ``largest`` live facts hold."""
    found = rows(
        "SELECT k.key, group_concat(k.fact_id, ' ') FROM entity_keys k "
        f"JOIN facts f ON f.id = k.fact_id WHERE {_LIVE} GROUP BY k.key "
        "HAVING count(*) BETWEEN 2 AND ?",
        (largest,),
    )
    return sorted({tuple(sorted(str(r[1]).split())) for r in found})


def fact_texts(rows: Rows) -> list[tuple[str, str, str]]:
    """``(id, kind, content)`` of every live fact, oldest first."""
    return [
        (r[0], r[1], r[2])
        for r in rows(
            f"SELECT f.id, f.kind, f.content FROM facts f WHERE {_LIVE} "
            "ORDER BY f.created_at, f.id",
            (),
        )
    ]


def _state(r: Any, members: tuple[str, ...]) -> ConflictState:
    resolved = r["status"] == "resolved"
    return ConflictState(
        conflict_id=r["id"],
        version=2 if resolved else 1,
        conflict_class=ConflictClass(r["class"]),
        members=members,
        findings=tuple(json.loads(r["findings"])),
        score=float(r["score"]),
        detected_by=r["detected_by"],
        opened_at=parse_time(r["opened_at"]),
        opened_by=r["opened_by"],
        opened_reason=r["opened_reason"],
        suggested_keep=r["suggested_keep"],
        outcome=Outcome(r["outcome"]) if resolved else None,
        kept_id=r["kept_id"],
        archived=tuple(json.loads(r["archived"])) if r["archived"] else (),
        resolved_at=parse_time(r["resolved_at"]) if r["resolved_at"] else None,
        resolved_by=r["resolved_by"],
        reason=r["reason"],
    )


def conflict_states(
    rows: Rows,
    *,
    ids: Sequence[str] | None = None,
    prefix: str | None = None,
    status: str | None = None,
    conflict_class: str | None = None,
    fact_id: str | None = None,
    limit: int = 1000,
) -> list[ConflictState]:
    """Conflicts newest first, by id, id prefix, status, class or member."""
    where, params = ["1"], []  # type: tuple[list[str], list[Any]]
    if ids is not None:
        if not ids:
            return []
        where.append(f"c.id IN ({','.join('?' * len(ids))})")
        params.extend(ids)
    if prefix is not None:
        where.append("c.id >= ? AND c.id < ?")
        params.extend((prefix, prefix + "\x7f"))
    terms, values = given_terms(
        ("c.status = ?", status),
        ("c.class = ?", conflict_class),
        ("c.id IN (SELECT conflict_id FROM conflict_members WHERE fact_id = ?)", fact_id),
    )
    where += terms
    params += values
    found = rows(
        f"SELECT c.* FROM conflicts c WHERE {' AND '.join(where)} "
        "ORDER BY c.opened_at DESC, c.id LIMIT ?",
        (*params, limit),
    )
    if not found:
        return []
    members: dict[str, list[str]] = {}
    names = [r["id"] for r in found]
    for start in range(0, len(names), _CHUNK):
        chunk = names[start : start + _CHUNK]
        for cid, fid in rows(
            f"SELECT conflict_id, fact_id FROM conflict_members WHERE conflict_id IN "
            f"({','.join('?' * len(chunk))}) ORDER BY conflict_id, place",
            chunk,
        ):
            members.setdefault(cid, []).append(fid)
    return [_state(r, tuple(members.get(r["id"], ()))) for r in found]


class ConflictQueries(StorePart):
    """The conflicts' reads, a part of either store (``store.conflicts``)."""

    def entity_matches(self, keys: Sequence[str], *, exclude: str, limit: int = 50) -> list[str]:
        return key_matches(self._store._rows, keys, exclude, limit)

    def entity_groups(self, largest: int = 50) -> list[tuple[str, ...]]:
        return entity_groups(self._store._rows, largest)

    def fact_texts(self) -> list[tuple[str, str, str]]:
        return fact_texts(self._store._rows)

    def conflict_states(self, **query: Any) -> list[ConflictState]:
        return conflict_states(self._store._rows, **query)
