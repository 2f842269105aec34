"""``embornal admin verify``: live projections against a copy rebuilt from the log."""

from __future__ import annotations

from embornal.domain.clock import Clock
from embornal.storage import (
    canon,
    claims_sql,
    eventlog,
    graph,
    migrations,
    narratives_sql,
    projector,
    proposals_sql,
    protocol,
)
from embornal.storage.connect import Connection, connect

__all__ = ["PROJECTION_QUERIES", "compare_with_replay"]

# One query per projection, independent of row ids that a replay may number differently.
PROJECTION_QUERIES: dict[str, str] = {
    "paths": "SELECT p.path, p.name, p.depth, q.path FROM paths p "
    "LEFT JOIN paths q ON q.id = p.parent_id ORDER BY p.path",
    "path_closure": "SELECT a.path, d.path, c.ancestor_depth FROM path_closure c "
    "JOIN paths a ON a.id = c.ancestor_id JOIN paths d ON d.id = c.descendant_id "
    "ORDER BY 1, 2",
    "facts": "SELECT f.id, p.path, f.content, f.kind, f.attributes, f.kind_version, f.owner, "
    "f.created_at, "
    "f.recorded_at, f.last_recall_at, f.recall_count, round(f.stability_days, 9), "
    "f.supersedes_id, f.superseded_by, f.deleted_at, f.purged_at, "
    "round(f.confidence, 12), f.last_confirmed_at, f.visibility, f.pinned, f.user_weight, "
    "f.lifetime, f.lifetime_until, f.expires_at, f.tag_text "
    "FROM facts f JOIN paths p ON p.id = f.path_id ORDER BY f.id",
    "fact_evidence": "SELECT fact_id, seq, evidence_type, value, note, recorded_at, actor "
    "FROM fact_evidence ORDER BY 1, 2",
    "fact_tags": "SELECT fact_id, key, value FROM fact_tags ORDER BY 1, 2",
    "fact_visibility_allow": "SELECT fact_id, subject FROM fact_visibility_allow ORDER BY 1, 2",
    "path_tags": "SELECT p.path, t.tagger, t.key, t.value FROM path_tags t "
    "JOIN paths p ON p.id = t.path_id ORDER BY 1, 2, 3",
    "effective_fact_tags": "SELECT fact_id, key, value FROM effective_fact_tags ORDER BY 1, 2",
    "facts_fts": "SELECT term, doc, cnt FROM facts_fts_vocab ORDER BY term",
    "counters": "SELECT name, value FROM counters ORDER BY name",
    "casbin_rule": "SELECT ptype, v0, v1, v2, v3, v4, v5 FROM casbin_rule ORDER BY 1, 2, 3, 4, 5",
    "tokens": "SELECT id, subject, name, token_hash, created_at, expires_at, revoked_at, "
    "actor_kind FROM tokens ORDER BY id",
    "fact_versions": "SELECT fact_id, valid_from, valid_to, position, state, attributes, "
    "kind_version, fields FROM fact_versions ORDER BY 1, 2",
    "fact_signals": "SELECT fact_id, valid_from, valid_to, last_recall_at, recall_count, "
    "round(stability_days, 9) FROM fact_signals ORDER BY 1, 2",
    "fact_tag_versions": "SELECT fact_id, key, valid_from, valid_to, value "
    "FROM fact_tag_versions ORDER BY 1, 2, 3",
    "conflicts": "SELECT id, class, status, round(score, 9), findings, detected_by, "
    "suggested_keep, opened_at, opened_by, outcome, kept_id, archived, resolved_at, "
    "resolved_by, reason, opened_reason FROM conflicts ORDER BY id",
    "conflict_members": "SELECT conflict_id, fact_id, place FROM conflict_members ORDER BY 1, 2",
    "entity_keys": "SELECT key, fact_id FROM entity_keys ORDER BY 1, 2",
    proposals_sql.TABLE: proposals_sql.VERIFY_QUERY,
    "path_tag_versions": "SELECT p.path, t.tagger, t.key, t.valid_from, t.valid_to, t.value "
    "FROM path_tag_versions t JOIN paths p ON p.id = t.path_id ORDER BY 1, 2, 3, 4",
    **graph.VERIFY_QUERIES,
    **protocol.VERIFY_QUERIES,
    **canon.VERIFY_QUERIES,
    **narratives_sql.VERIFY_QUERIES,
    **claims_sql.VERIFY_QUERIES,
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
