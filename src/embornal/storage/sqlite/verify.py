"""``embornal admin verify``: live projections against a copy rebuilt from the log."""

from __future__ import annotations

from embornal.domain.clock import Clock
from embornal.storage.common import verify as verify_sql
from embornal.storage.sqlite import eventlog, migrations, projector
from embornal.storage.sqlite.connect import Connection, connect

__all__ = ["PROJECTION_QUERIES", "compare_with_replay"]

#: One query per projection (:mod:`.verify_sql`), the keyword index by FTS5's vocabulary.
PROJECTION_QUERIES: dict[str, str] = {
    **verify_sql.queries(*verify_sql.FACT_TABLES),
    "facts_fts": "SELECT term, doc, cnt FROM facts_fts_vocab ORDER BY term",
    **verify_sql.queries("counters"),
    "casbin_rule": "SELECT ptype, v0, v1, v2, v3, v4, v5 FROM casbin_rule ORDER BY 1, 2, 3, 4, 5",
    **verify_sql.queries(
        "tokens",
        "fact_versions",
        "fact_signals",
        "fact_tag_versions",
        "conflicts",
        "conflict_members",
        "entity_keys",
        "proposals",
        "path_tag_versions",
    ),
    **verify_sql.AREA_QUERIES,
}


def _replayed_copy(live: Connection, clock: Clock) -> Connection:
    scratch = connect(":memory:")
    migrations.migrate(scratch, clock, include_data=False)
    scratch.execute("BEGIN")
    for event in eventlog.read_all(live):
        projector.apply(scratch, event)
    scratch.execute("COMMIT")
    return scratch


def compare_with_replay(live: Connection | str, clock: Clock, *, sample: int = 3) -> list[str]:
    """Human-readable lines naming each projection that differs, with a few rows.

    Given a path, the log and the projections are read on a connection of its own inside
    one read transaction: one snapshot, and writers never wait for it (WAL).
    """
    if isinstance(live, str):
        conn = connect(live)
        try:
            conn.execute("BEGIN")
            try:
                return _compare(conn, clock, sample)
            finally:
                conn.execute("COMMIT")
        finally:
            conn.close()
    return _compare(live, clock, sample)


def _compare(live: Connection, clock: Clock, sample: int) -> list[str]:
    scratch = _replayed_copy(live, clock)
    try:
        problems: list[str] = []
        for name, query in PROJECTION_QUERIES.items():
            have = {tuple(r) for r in live.execute(query).fetchall()}
            want = {tuple(r) for r in scratch.execute(query).fetchall()}
            if have == want:
                continue
            extra = sorted(have - want, key=repr)[:sample]
            missing = sorted(want - have, key=repr)[:sample]
            problems.append(
                f"{name}: {len(have - want)} row(s) not in the log's replay, "
                f"{len(want - have)} row(s) missing"
                + (f"; extra e.g. {extra}" if extra else "")
                + (f"; missing e.g. {missing}" if missing else "")
            )
        return problems
    finally:
        scratch.close()
