"""The queries ``embornal admin verify`` compares, written once for both backends.

One query per projection, independent of the row ids a replay may number differently.
Each backend lists the projections it verifies in its own order
(:data:`embornal.storage.sqlite.verify.PROJECTION_QUERIES`,
:data:`embornal.storage.postgres.admin.PROJECTION_QUERIES`) and adds its own: the keyword
index (FTS5's vocabulary on SQLite; the term rows and statistics on PostgreSQL) and the
access rules' order. What the two spell differently is a parameter: a float column is
rounded after a cast on PostgreSQL (its ``round`` to a number of places takes only
``numeric``), and PostgreSQL's ``facts`` row holds its keyword terms.
"""

from __future__ import annotations

from embornal.storage.common import canon, graph, protocol
from embornal.storage.common import claims as claims_sql
from embornal.storage.common import narratives as narratives_sql
from embornal.storage.common import proposals as proposals_sql

__all__ = ["AREA_QUERIES", "FACT_TABLES", "queries"]

#: The paths, the facts and what hangs from them: first on both backends.
FACT_TABLES = (
    "paths",
    "path_closure",
    "facts",
    "fact_evidence",
    "fact_tags",
    "fact_visibility_allow",
    "path_tags",
    "effective_fact_tags",
)

#: The areas' projections, after the core's on both backends.
AREA_QUERIES: dict[str, str] = {
    **graph.VERIFY_QUERIES,
    **protocol.VERIFY_QUERIES,
    **canon.VERIFY_QUERIES,
    **narratives_sql.VERIFY_QUERIES,
    **claims_sql.VERIFY_QUERIES,
}


def queries(*names: str, numeric: str = "", fact_columns: str = "") -> dict[str, str]:
    """The core projections' queries named, in that order. ``numeric`` is the cast a float
    column takes before ``round`` (none on SQLite, ``::numeric`` on PostgreSQL);
    ``fact_columns`` the backend's own columns of ``facts``, after the shared ones."""
    n = numeric
    every = {
        "paths": "SELECT p.path, p.name, p.depth, q.path FROM paths p "
        "LEFT JOIN paths q ON q.id = p.parent_id ORDER BY p.path",
        "path_closure": "SELECT a.path, d.path, c.ancestor_depth FROM path_closure c "
        "JOIN paths a ON a.id = c.ancestor_id JOIN paths d ON d.id = c.descendant_id "
        "ORDER BY 1, 2",
        "facts": "SELECT f.id, p.path, f.content, f.kind, f.attributes, f.kind_version, "
        "f.owner, f.created_at, f.recorded_at, f.last_recall_at, f.recall_count, "
        f"round(f.stability_days{n}, 9), f.supersedes_id, f.superseded_by, f.deleted_at, "
        f"f.purged_at, round(f.confidence{n}, 12), f.last_confirmed_at, f.visibility, "
        "f.pinned, f.user_weight, f.lifetime, f.lifetime_until, f.expires_at, f.tag_text"
        f"{fact_columns} FROM facts f JOIN paths p ON p.id = f.path_id ORDER BY f.id",
        "fact_evidence": "SELECT fact_id, seq, evidence_type, value, note, recorded_at, actor "
        "FROM fact_evidence ORDER BY 1, 2",
        "fact_tags": "SELECT fact_id, key, value FROM fact_tags ORDER BY 1, 2",
        "fact_visibility_allow": "SELECT fact_id, subject FROM fact_visibility_allow ORDER BY 1, 2",
        "path_tags": "SELECT p.path, t.tagger, t.key, t.value FROM path_tags t "
        "JOIN paths p ON p.id = t.path_id ORDER BY 1, 2, 3",
        "effective_fact_tags": "SELECT fact_id, key, value FROM effective_fact_tags ORDER BY 1, 2",
        "counters": "SELECT name, value FROM counters ORDER BY name",
        "tokens": "SELECT id, subject, name, token_hash, created_at, expires_at, revoked_at, "
        "actor_kind FROM tokens ORDER BY id",
        "fact_versions": "SELECT fact_id, valid_from, valid_to, position, state, attributes, "
        "kind_version, fields FROM fact_versions ORDER BY 1, 2",
        "fact_signals": "SELECT fact_id, valid_from, valid_to, last_recall_at, recall_count, "
        f"round(stability_days{n}, 9) FROM fact_signals ORDER BY 1, 2",
        "fact_tag_versions": "SELECT fact_id, key, valid_from, valid_to, value "
        "FROM fact_tag_versions ORDER BY 1, 2, 3",
        "path_tag_versions": "SELECT p.path, t.tagger, t.key, t.valid_from, t.valid_to, "
        "t.value FROM path_tag_versions t JOIN paths p ON p.id = t.path_id "
        "ORDER BY 1, 2, 3, 4",
        "conflicts": f"SELECT id, class, status, round(score{n}, 9), findings, detected_by, "
        "suggested_keep, opened_at, opened_by, outcome, kept_id, archived, resolved_at, "
        "resolved_by, reason, opened_reason FROM conflicts ORDER BY id",
        "conflict_members": "SELECT conflict_id, fact_id, place FROM conflict_members "
        "ORDER BY 1, 2",
        "entity_keys": "SELECT key, fact_id FROM entity_keys ORDER BY 1, 2",
        proposals_sql.TABLE: proposals_sql.VERIFY_QUERY,
    }
    return {name: every[name] for name in names}
