"""Rebuild, verify and the purge's cleanup on PostgreSQL.

A rebuild replays the whole log into emptied projections in one write transaction. A
verify does the same inside a savepoint of its own transaction, reads every projection
before and after by its natural keys (never the row ids a replay numbers anew), and rolls
the savepoint back: nothing is written, and no scratch database is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from embornal.domain.events import Event
from embornal.storage.common import history
from embornal.storage.common import verify as verify_sql
from embornal.storage.postgres import eventlog, projector
from embornal.storage.postgres.db import Conn, rows

__all__ = ["PROJECTION_QUERIES", "compact", "differences", "replay"]

#: One query per projection (:mod:`~embornal.storage.common.verify`), each float rounded as
#: ``numeric``; the keyword index by its term rows and statistics.
PROJECTION_QUERIES: dict[str, str] = {
    **verify_sql.queries(
        *verify_sql.FACT_TABLES,
        numeric="::numeric",
        fact_columns=", f.terms::text, f.term_count",
    ),
    "fact_terms": "SELECT f.id, t.term, t.tf, t.dl FROM fact_terms t JOIN facts f ON f.seq = t.seq "
    "ORDER BY 1, 2",
    "term_stats": "SELECT term, df FROM term_stats ORDER BY term",
    **verify_sql.queries("counters"),
    "casbin_rule": "SELECT ptype, v0, v1, v2, v3, v4, v5 FROM casbin_rule ORDER BY id",
    **verify_sql.queries(
        "tokens",
        "conflicts",
        "conflict_members",
        "entity_keys",
        "proposals",
        *history.TABLES,
        numeric="::numeric",
    ),
    **verify_sql.AREA_QUERIES,
}

_PROJECTIONS = (
    "fact_terms, term_stats, fact_visibility_allow, fact_evidence, fact_tags, path_tags, "
    "facts, path_closure, paths, casbin_rule, tokens, conflict_members, conflicts, entity_keys, "
    "fact_links, fact_merges, proposals, memory_protocol, memory_corroborations, canon_entries, "
    "narratives, narrative_dependencies, claims, claim_citations, " + ", ".join(history.TABLES)
)


def replay(
    tx: Conn,
    progress: Callable[[str, int, int], None] | None = None,
    apply: Callable[[Conn, Event], None] = projector.apply,
) -> int:
    """Empty every projection (the root path kept) and apply the whole log, each event
    given to ``apply``; return how many events. The vectors go with the facts' rows (they
    wait to be made again)."""
    tx.execute(f"TRUNCATE {_PROJECTIONS} RESTART IDENTITY CASCADE")
    tx.execute("UPDATE counters SET value = 0 WHERE name <> ''")
    tx.execute(
        "INSERT INTO paths (id, parent_id, name, path, depth) OVERRIDING SYSTEM VALUE "
        "VALUES (1, NULL, '', '/', 0)"
    )
    tx.execute("SELECT setval(pg_get_serial_sequence('paths', 'id'), 1)")
    tx.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) VALUES (1, 1, 0)"
    )
    total = int(rows(tx, "SELECT count(*) FROM events")[0][0])
    count = 0
    for event in eventlog.read_all(tx):
        apply(tx, event)
        count += 1
        if progress is not None and count % 1000 == 0:
            progress("replaying events", count, total)
    return count


def _snapshot(tx: Conn) -> dict[str, list[tuple[Any, ...]]]:
    return {name: [tuple(r) for r in rows(tx, sql)] for name, sql in PROJECTION_QUERIES.items()}


def differences(tx: Conn) -> list[str]:
    """Each projection that differs from a replay of the log, with what differs (in the
    caller's write transaction, which keeps nothing of the replay)."""
    live = _snapshot(tx)
    with tx.transaction():  # a savepoint: psycopg rolls it back on Rollback, and goes on
        replay(tx)
        replayed = _snapshot(tx)
        raise psycopg.Rollback()
    out: list[str] = []
    for name in PROJECTION_QUERIES:
        have, want = live[name], replayed[name]
        if have == want:
            continue
        extra = [r for r in have if r not in want][:3]
        missing = [r for r in want if r not in have][:3]
        out.append(
            f"{name}: {len(have)} rows, a replay gives {len(want)}; "
            f"only live: {extra}; only replayed: {missing}"
        )
    return out


def compact(url_conn: Conn) -> bool:
    """After a purge: rewrite every table of the schema (``VACUUM FULL``) so the old row
    versions of the erased text leave the data files, and checkpoint. Every table, not a
    list of those known to hold text: a projection added later cannot be forgotten here
    (decision 0134). Runs outside a transaction; True when done."""
    for (table,) in rows(
        url_conn,
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
    ):
        url_conn.execute(f'VACUUM FULL "{table}"')
    url_conn.execute("CHECKPOINT")
    return True
