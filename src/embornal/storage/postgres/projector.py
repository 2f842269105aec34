"""Projections on PostgreSQL: how each event changes the tables that answer queries.

``apply`` runs in the transaction that appends the event, as on SQLite. The pure parts
(attribute validation, lifetimes, confidence steps, reinforcement, the keyword terms) are
the SQLite projector's and the domain's; only the SQL is this backend's. An event type
whose projection is not ported yet stops the write (:class:`~embornal.errors.StorageError`)
rather than leave a projection silently behind its log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from embornal.domain import paths as P
from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import EVENTS, ActorKind, EventType
from embornal.domain.strength import INITIAL_STABILITY_DAYS, Signals, reinforce
from embornal.domain.text import index_terms
from embornal.errors import StorageError
from embornal.storage import (
    canon,
    claims_sql,
    conflict_projection,
    narratives_sql,
    proposals_sql,
    protocol,
)
from embornal.storage.postgres import graph, keyword
from embornal.storage.postgres import history as pg_history
from embornal.storage.postgres.db import Conn, Dialect, execute
from embornal.storage.projector import _lifetime_columns, _valid_attributes, tag_text

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["PORTED", "allow_rows", "apply", "ensure_path", "evidence_rows", "fact_values", "many"]


def _x(conn: Conn, sql: str, params: Any = ()) -> Any:
    return execute(conn, sql, params)


def many(conn: Conn, sql: str, seq: list[tuple[Any, ...]]) -> None:
    """``sql`` run once for each row of ``seq`` (none: nothing sent), pipelined."""
    if seq:
        from embornal.storage.postgres.db import pg_sql

        with conn.cursor() as cur:
            cur.executemany(pg_sql(sql), seq)


def ensure_path(conn: Conn, path: str) -> int:
    """The id of ``path`` (normalized), creating it and every missing ancestor."""
    row = _x(conn, "SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
    if row is not None:
        return int(row[0])
    parent = P.parent_of(path)
    assert parent is not None  # the root always exists
    parent_id = ensure_path(conn, parent)
    depth = len(P.segments(path))
    new_id = int(
        _x(
            conn,
            "INSERT INTO paths (parent_id, name, path, depth) VALUES (?, ?, ?, ?) RETURNING id",
            (parent_id, P.name_of(path), path, depth),
        ).fetchone()[0]
    )
    _x(
        conn,
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) "
        "SELECT ancestor_id, ?, ancestor_depth FROM path_closure WHERE descendant_id = ? "
        "UNION ALL SELECT ?, ?, ?",
        (new_id, parent_id, new_id, new_id, depth),
    )
    return new_id


# -- the keyword index -------------------------------------------------------------------


def _index_terms(conn: Conn, seq: int, content: str) -> None:
    """The fact's terms into its tsvector, ``fact_terms`` and the BM25 statistics."""
    terms = index_terms(content)
    counts = Counter(terms)
    _x(
        conn,
        "UPDATE facts SET terms = array_to_tsvector(?::text[]), term_count = ? WHERE seq = ?",
        (sorted(counts), len(terms), seq),
    )
    if keyword.writes_lengths():
        many(
            conn,
            "INSERT INTO fact_terms (seq, term, tf, dl) VALUES (?, ?, ?, ?)",
            [(seq, t, n, len(terms)) for t, n in counts.items()],
        )
    else:  # a migration before pg_0009 (the guide's facts): it fills the lengths in
        many(
            conn,
            "INSERT INTO fact_terms (seq, term, tf) VALUES (?, ?, ?)",
            [(seq, t, n) for t, n in counts.items()],
        )
    many(
        conn,
        "INSERT INTO term_stats (term, df) VALUES (?, 1) "
        "ON CONFLICT (term) DO UPDATE SET df = term_stats.df + 1",
        [(t,) for t in sorted(counts)],
    )
    _x(
        conn,
        "UPDATE counters SET value = value + CASE name WHEN 'fts_docs' THEN 1 ELSE ? END "
        "WHERE name IN ('fts_docs', 'fts_length')",
        (len(terms),),
    )


def _unindex_terms(conn: Conn, seq: int) -> None:
    """Take a (purged) fact's terms out of the index and its statistics."""
    found = _x(conn, "SELECT term FROM fact_terms WHERE seq = ?", (seq,)).fetchall()
    length = _x(conn, "SELECT term_count FROM facts WHERE seq = ?", (seq,)).fetchone()
    _x(conn, "DELETE FROM fact_terms WHERE seq = ?", (seq,))
    terms = [r[0] for r in found]
    if terms:
        _x(conn, "UPDATE term_stats SET df = df - 1 WHERE term = ANY(?)", (terms,))
        _x(conn, "DELETE FROM term_stats WHERE df <= 0 AND term = ANY(?)", (terms,))
    _x(
        conn,
        "UPDATE counters SET value = value - CASE name WHEN 'fts_docs' THEN 1 ELSE ? END "
        "WHERE name IN ('fts_docs', 'fts_length')",
        (int(length[0]) if length else 0,),
    )
    _x(conn, "UPDATE facts SET terms = NULL, term_count = 0 WHERE seq = ?", (seq,))


# -- facts ---------------------------------------------------------------------------------


#: The columns of a new ``facts`` row, in :func:`fact_values`' order.
FACT_COLUMNS = (
    "id, path_id, content, kind, owner, created_at, recorded_at, stability_days, "
    "supersedes_id, attributes, kind_version, visibility, lifetime, lifetime_until, "
    "expires_at, confidence, tag_text"
)


def fact_values(e: Event, b: Any, path_id: int) -> tuple[Any, ...]:
    """The :data:`FACT_COLUMNS` values of the row that the store ``b`` creates (one store,
    or a run of them: :mod:`.store_run`)."""
    from embornal.domain.confidence import prior

    content = b.content or ""
    attributes = kind_version = None
    if b.attributes:
        stored = _valid_attributes(b.kind, b.kind_version or 1, b.attributes, content)
        if stored is not None:
            attributes, kind_version = stored
    lifetime: tuple[str, str | None, str | None] = ("standard", None, None)
    if b.lifetime is not None:
        lifetime = _lifetime_columns(b.lifetime, b.kind, e)
    start = b.confidence if b.confidence is not None else prior(e.actor_kind)
    return (
        b.fact_id,
        path_id,
        content,
        b.kind,
        b.owner,
        format_time(b.created_at),
        format_time(e.recorded_at),
        INITIAL_STABILITY_DAYS,
        b.supersedes_id,
        attributes,
        kind_version,
        b.visibility,
        *lifetime,
        start,
        tag_text(b.tags),
    )


def _fact_stored(conn: Conn, e: Event, b: Any) -> None:
    path_id = ensure_path(conn, b.path)
    seq = int(
        _x(
            conn,
            f"INSERT INTO facts ({FACT_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq",
            fact_values(e, b, path_id),
        ).fetchone()[0]
    )
    many(
        conn,
        "INSERT INTO fact_tags (fact_id, key, value) VALUES (?, ?, ?)",
        [(b.fact_id, t.key, t.value) for t in b.tags],
    )
    _index_terms(conn, seq, b.content or "")
    if b.supersedes_id:
        _x(conn, "UPDATE facts SET superseded_by = ? WHERE id = ?", (b.fact_id, b.supersedes_id))
    many(conn, ALLOW_INSERT, allow_rows(b.fact_id, b.visibility))
    many(conn, EVIDENCE_INSERT, evidence_rows(e, b))


ALLOW_INSERT = "INSERT INTO fact_visibility_allow (fact_id, subject) VALUES (?, ?)"
EVIDENCE_INSERT = (
    "INSERT INTO fact_evidence (fact_id, seq, evidence_type, value, note, recorded_at, "
    "actor) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def evidence_rows(e: Event, b: Any) -> list[tuple[Any, ...]]:
    """The ``fact_evidence`` rows of evidence given with a store (none: none given)."""
    if not b.evidence_types:
        return []
    n = len(b.evidence_types)
    texts = zip(b.evidence_values or ("",) * n, b.evidence_notes or ("",) * n, strict=False)
    return [
        (b.fact_id, i, t, v or "", note or None, format_time(e.recorded_at), e.actor)
        for i, (t, (v, note)) in enumerate(zip(b.evidence_types, texts, strict=False), 1)
    ]


def allow_rows(fact_id: str, visibility: str | None) -> list[tuple[str, str]]:
    """The allow-list rows of a restricted fact (none for any other)."""
    if visibility is None or not visibility.startswith("restricted:"):
        return []
    names = sorted(set(visibility.removeprefix("restricted:").split(",")))
    return [(fact_id, n) for n in names]


def _fact_visibility_changed(conn: Conn, e: Event, b: Any) -> None:
    from embornal.domain.spine import stored_visibility

    stored = stored_visibility(b.visibility)
    _x(conn, "UPDATE facts SET visibility = ? WHERE id = ?", (stored, b.fact_id))
    _x(conn, "DELETE FROM fact_visibility_allow WHERE fact_id = ?", (b.fact_id,))
    many(conn, ALLOW_INSERT, allow_rows(b.fact_id, stored))


def _importance_adjusted(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "UPDATE facts SET pinned = ?, user_weight = ? WHERE id = ?",
        (int(b.pinned), b.user_weight, b.fact_id),
    )


def _lifetime_changed(conn: Conn, e: Event, b: Any) -> None:
    row = _x(conn, "SELECT kind FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None:
        return
    _x(
        conn,
        "UPDATE facts SET lifetime = ?, lifetime_until = ?, expires_at = ? WHERE id = ?",
        (*_lifetime_columns(b.lifetime, row[0], e), b.fact_id),
    )


def _fact_attributes_updated(conn: Conn, e: Event, b: Any) -> None:
    import json

    from embornal.domain.kinds.registry import KINDS

    row = _x(
        conn,
        "SELECT kind, kind_version, attributes, content FROM facts "
        "WHERE id = ? AND purged_at IS NULL",
        (b.fact_id,),
    ).fetchone()
    if row is None or b.changes is None:
        return
    merged: dict[str, Any] = json.loads(row[2]) if row[2] else {}
    if merged and row[0] in KINDS:
        merged = KINDS.upcast(row[0], int(row[1] or 1), merged)[1]
    for name, value in b.changes.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    stored = _valid_attributes(row[0], b.kind_version, merged, row[3]) if merged else None
    _x(
        conn,
        "UPDATE facts SET attributes = ?, kind_version = ? WHERE id = ?",
        (*(stored or (None, None)), b.fact_id),
    )


def _set_superseder(conn: Conn, fact_id: str, live: bool) -> None:
    row = _x(conn, "SELECT supersedes_id FROM facts WHERE id = ?", (fact_id,)).fetchone()
    if row is None or row[0] is None:
        return
    if live:
        _x(conn, "UPDATE facts SET superseded_by = ? WHERE id = ?", (fact_id, row[0]))
    else:
        _x(
            conn,
            "UPDATE facts SET superseded_by = NULL WHERE id = ? AND superseded_by = ?",
            (row[0], fact_id),
        )


def _fact_forgotten(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "UPDATE facts SET deleted_at = ? WHERE id = ?",
        (format_time(e.recorded_at), b.fact_id),
    )
    _set_superseder(conn, b.fact_id, live=False)


def _fact_restored(conn: Conn, e: Event, b: Any) -> None:
    _x(conn, "UPDATE facts SET deleted_at = NULL WHERE id = ?", (b.fact_id,))
    _set_superseder(conn, b.fact_id, live=True)


def _fact_purged(conn: Conn, e: Event, b: Any) -> None:
    fid = b.fact_id
    row = _x(conn, "SELECT seq FROM facts WHERE id = ?", (fid,)).fetchone()
    if row is None:
        return
    when = format_time(e.recorded_at)
    _unindex_terms(conn, int(row[0]))
    if _x(conn, "SELECT to_regclass('fact_vectors') IS NOT NULL").fetchone()[0]:
        _x(conn, "DELETE FROM fact_vectors WHERE seq = ?", (row[0],))
        _x(conn, "DELETE FROM fact_pieces WHERE fact_id = ?", (fid,))
    _x(conn, "DELETE FROM fact_tags WHERE fact_id = ? AND key <> 'owner'", (fid,))
    _x(conn, "UPDATE facts SET tag_text = 'owner' || chr(31) || owner WHERE id = ?", (fid,))
    _x(conn, "UPDATE fact_evidence SET value = '', note = NULL WHERE fact_id = ?", (fid,))
    _x(
        conn,
        "UPDATE facts SET content = '', attributes = NULL, kind_version = NULL, purged_at = ?, "
        "deleted_at = coalesce(deleted_at, ?) WHERE id = ?",
        (when, when, fid),
    )
    _set_superseder(conn, fid, live=False)
    protocol.purged(Dialect(conn), fid)
    canon.purged(Dialect(conn), fid)


_STEPS = {
    EventType.FACT_CONFIRMED.value: "confirm",
    EventType.FACT_CONTRADICTED.value: "contradict",
    EventType.FACT_EVIDENCE_ADDED.value: "evidence",
}


def _vouched(conn: Conn, e: Event, b: Any) -> None:
    from embornal.domain import confidence as C

    row = _x(conn, "SELECT confidence FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None or row[0] is None:
        return
    step = C.ConfidenceStep(C.StepKind(_STEPS[b.TYPE]), ActorKind(e.actor_kind))
    c = C.fold_confidence(float(row[0]), [step])
    if b.TYPE == EventType.FACT_CONTRADICTED:
        _x(conn, "UPDATE facts SET confidence = ? WHERE id = ?", (c, b.fact_id))
        return
    when = format_time(e.recorded_at)
    _x(
        conn,
        "UPDATE facts SET confidence = ?, last_confirmed_at = ? WHERE id = ?",
        (c, when, b.fact_id),
    )
    if b.evidence_type is None:
        return
    _x(
        conn,
        "INSERT INTO fact_evidence (fact_id, seq, evidence_type, value, note, recorded_at, "
        "actor) SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ? FROM fact_evidence "
        "WHERE fact_id = ?",
        (
            b.fact_id,
            b.evidence_type,
            b.evidence_value or "",
            b.evidence_note,
            when,
            e.actor,
            b.fact_id,  # whose evidence numbers the new row
        ),
    )


def _confidence_reset(conn: Conn, e: Event, b: Any) -> None:
    when = None if b.last_confirmed_at is None else format_time(b.last_confirmed_at)
    _x(
        conn,
        "UPDATE facts SET confidence = ?, last_confirmed_at = ? WHERE id = ? "
        "AND confidence IS NOT NULL",
        (b.confidence, when, b.fact_id),
    )


def _facts_recalled(conn: Conn, e: Event, b: Any) -> None:
    ids = list(b.fact_ids)
    if not ids:
        return
    found = _x(
        conn,
        "SELECT id, created_at, last_recall_at, recall_count, stability_days "
        "FROM facts WHERE id = ANY(?) ORDER BY id FOR UPDATE",
        (ids,),
    ).fetchall()
    updates: list[tuple[Any, ...]] = []
    for r in found:
        before = Signals(
            parse_time(r[1]), parse_time(r[2]) if r[2] else None, int(r[3]), float(r[4])
        )
        after = reinforce(before, b.at)
        assert after.last_recall_at is not None
        updates.append(
            (format_time(after.last_recall_at), after.recall_count, after.stability_days, r[0])
        )
    many(
        conn,
        "UPDATE facts SET last_recall_at = ?, recall_count = ?, stability_days = ? WHERE id = ?",
        updates,
    )


# -- paths and access ------------------------------------------------------------------------


def _path_tagged(conn: Conn, e: Event, b: Any) -> None:
    path_id = ensure_path(conn, b.path)
    many(
        conn,
        "INSERT INTO path_tags (path_id, tagger, key, value) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (path_id, tagger, key) DO UPDATE SET value = excluded.value",
        [(path_id, e.actor, t.key, t.value) for t in b.tags],
    )


def _path_untagged(conn: Conn, e: Event, b: Any) -> None:
    row = _x(conn, "SELECT id FROM paths WHERE path = ?", (b.path,)).fetchone()
    if row is None:
        return
    many(
        conn,
        "DELETE FROM path_tags WHERE path_id = ? AND tagger = ? AND key = ?",
        [(row[0], e.actor, k) for k in b.keys],
    )


def _rule_values(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple([*values, "", "", "", "", "", ""][:6])


def _policy_added(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (b.ptype, *_rule_values(b.values)),
    )
    _x(conn, "UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _policy_removed(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "DELETE FROM casbin_rule WHERE ptype = ? AND v0 = ? AND v1 = ? AND v2 = ? AND v3 = ? "
        "AND v4 = ? AND v5 = ?",
        (b.ptype, *_rule_values(b.values)),
    )
    _x(conn, "UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _token_issued(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "INSERT INTO tokens (id, subject, name, token_hash, created_at, expires_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            b.token_id,
            b.subject,
            b.name,
            b.token_hash,
            format_time(e.recorded_at),
            format_time(b.expires_at) if b.expires_at is not None else None,
        ),
    )


def _token_revoked(conn: Conn, e: Event, b: Any) -> None:
    _x(
        conn,
        "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        (format_time(e.recorded_at), b.token_id),
    )


_HANDLERS: dict[str, Callable[[Conn, Event, Any], None]] = {
    EventType.FACT_STORED.value: _fact_stored,
    EventType.FACT_ATTRIBUTES_UPDATED.value: _fact_attributes_updated,
    EventType.FACT_FORGOTTEN.value: _fact_forgotten,
    EventType.FACT_RESTORED.value: _fact_restored,
    EventType.FACT_PURGED.value: _fact_purged,
    EventType.FACT_CONFIRMED.value: _vouched,
    EventType.FACT_CONTRADICTED.value: _vouched,
    EventType.FACT_EVIDENCE_ADDED.value: _vouched,
    EventType.FACT_CONFIDENCE_RESET.value: _confidence_reset,
    EventType.FACT_VISIBILITY_CHANGED.value: _fact_visibility_changed,
    EventType.FACT_IMPORTANCE_ADJUSTED.value: _importance_adjusted,
    EventType.FACT_LIFETIME_CHANGED.value: _lifetime_changed,
    EventType.FACTS_RECALLED.value: _facts_recalled,
    EventType.PATH_TAGGED.value: _path_tagged,
    EventType.PATH_UNTAGGED.value: _path_untagged,
    EventType.POLICY_ADDED.value: _policy_added,
    EventType.POLICY_REMOVED.value: _policy_removed,
    EventType.TOKEN_ISSUED.value: _token_issued,
    EventType.TOKEN_REVOKED.value: _token_revoked,
    **graph.HANDLERS,
    # The conflicts', the proposals', the history protocol's (decision 0064), the canon's
    # and frames' (0078) handlers are written once for both backends: their plain SQL is
    # run through the dialect.
    **{
        name: (lambda h: lambda conn, e, b: h(Dialect(conn), e, b))(handler)
        for name, handler in (
            *conflict_projection.HANDLERS.items(),
            *proposals_sql.HANDLERS.items(),
            *protocol.HANDLERS.items(),
            *canon.HANDLERS.items(),
            *narratives_sql.HANDLERS.items(),
            *claims_sql.HANDLERS.items(),  # the claims ledger's (decision 0081)
        )
    },
}
#: The event types this backend projects.
PORTED = frozenset(_HANDLERS)


def apply(conn: Conn, event: Event) -> None:
    """Apply one event to the projections (unknown types are ignored: newer writers)."""
    if not EVENTS.knows(event.type):
        return
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise StorageError(
            f"postgresql: the projection of {event.type} is not ported yet",
            hint="Keep this memory on SQLite (a file path in storage.url) for now.",
        )
    body = event.body
    handler(conn, event, body)
    conflict_projection.after(Dialect(conn), event, body)  # entity keys (decision 0059)
    pg_history.project(conn, event, body)  # the intervals of what it changed (decision 0041)
