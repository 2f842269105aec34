"""Projections: how each event changes the tables that answer queries.

``apply`` runs inside the transaction that appends the event, so the log and
the projections never disagree; ``embornal admin rebuild`` runs the same code
over the whole log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import import_module
from typing import TYPE_CHECKING, Any

from embornal.domain import paths as P
from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import EVENTS, ActorKind, EventType
from embornal.domain.strength import INITIAL_STABILITY_DAYS, Signals, reinforce
from embornal.domain.text import fts_document
from embornal.storage import conflict_projection, history
from embornal.storage.connect import Connection, DriverError
from embornal.storage.projector_areas import AREAS, projection_tables

if TYPE_CHECKING:  # the handlers name their bodies; dispatch is by stored type
    from embornal.domain.events import (
        Event,
        FactAttributesUpdated,
        FactConfidenceReset,
        FactConfirmed,
        FactContradicted,
        FactEvidenceAdded,
        FactForgotten,
        FactImportanceAdjusted,
        FactLifetimeChanged,
        FactPurged,
        FactRestored,
        FactsRecalled,
        FactStored,
        FactVisibilityChanged,
        PathTagged,
        PathUntagged,
        PolicyAdded,
        PolicyRemoved,
        TokenIssued,
        TokenRevoked,
    )
    from embornal.domain.tags import Tag

__all__ = ["PROJECTION_TABLES", "apply", "clear_projections", "ensure_path", "handler"]

if TYPE_CHECKING:  # tables rebuilt from the log, children first (projector_areas)
    PROJECTION_TABLES: tuple[str, ...]
else:

    def __getattr__(name: str) -> Any:  # PROJECTION_TABLES: read by a rebuild, not a write
        if name != "PROJECTION_TABLES":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        tables = globals()["PROJECTION_TABLES"] = projection_tables()
        return tables


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


#: The keyword documents of the stores of one append, written after its stores (see
#: :func:`batch`); None outside a batch: each document is written at once.
_DOCS: ContextVar[list[tuple[int, str]] | None] = ContextVar("embornal_fts_docs", default=None)


@contextmanager
def batch(conn: Connection) -> Iterator[None]:
    """Apply the events of one append: the keyword documents of its stores are written
    together, after the last store (or before the first other event, which may read or
    delete them). FTS5 writes its pending terms out as a segment whenever a statement
    opens a statement journal (an INSERT with triggers, an INSERT … SELECT), so writing
    each document between the other statements of its store made one segment, and merge
    work, per fact."""
    docs: list[tuple[int, str]] = []
    token = _DOCS.set(docs)
    try:
        with history.batch(conn):  # the first history rows of its stores, likewise
            yield
        _write_docs(conn, docs)
    finally:
        _DOCS.reset(token)


def _write_docs(conn: Connection, docs: list[tuple[int, str]]) -> None:
    if not docs:
        return
    conn.executemany("INSERT INTO facts_fts (rowid, body) VALUES (?, ?)", docs)
    conn.execute("UPDATE counters SET value = value + ? WHERE name = 'fts_docs'", (len(docs),))
    docs.clear()


def fts_insert(conn: Connection, seq: int, content: str) -> None:
    """The keyword document of fact row ``seq``: now, or with its batch's (see :func:`batch`)."""
    docs = _DOCS.get()
    if docs is None:
        _write_docs(conn, [(seq, fts_document(content))])
    else:
        docs.append((seq, fts_document(content)))


def _valid_attributes(
    kind: str, version: int, attributes: Mapping[str, Any], content: str
) -> tuple[str, int] | None:
    """``(JSON text, schema version)`` of the attributes a fact's row stores: upcast to the
    kind's latest version and valid, less a derived statement; None for none (also for a
    kind this build does not register, or a payload that does not validate)."""
    from embornal.domain.fact_attributes import without_derived
    from embornal.domain.kinds.registry import KINDS
    from embornal.errors import InvalidAttribute

    if kind not in KINDS:
        return None
    try:
        latest, payload = KINDS.upcast(kind, version, attributes)
        payload = without_derived(kind, KINDS.validate(kind, payload), content)
    except InvalidAttribute:
        return None
    if not payload:
        return None
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text, latest


def tag_text(tags: Iterable[Tag]) -> str | None:
    """A fact's own tags as its row's ``tag_text`` (migration 0028): ``key US value``,
    ``RS`` between, sorted by key then value; None without tags."""
    pairs = sorted((t.key, t.value) for t in tags)
    return "\x1e".join(f"{k}\x1f{v}" for k, v in pairs) if pairs else None


#: The columns a fact's row names last, in migration order (0013, 0028): a data migration
#: older than them (the guide, 0003) writes facts before they exist; 0013 fills confidence
#: in from the log and 0028 the tag text from fact_tags, as a replay does.
LATE_COLUMNS = ("confidence", "tag_text")


def fact_row(e: Event, b: FactStored, path_id: int) -> tuple[list[str], list[Any]]:
    """The columns and values of the ``facts`` row that ``b`` creates (one store, or a run
    of them: :mod:`embornal.storage.store_run`); :data:`LATE_COLUMNS` come last."""
    content = b.content or ""
    cols = ["id", "path_id", "content", "kind", "owner", "created_at", "recorded_at"]
    cols += ["stability_days", "supersedes_id"]
    values: list[Any] = [
        b.fact_id,
        path_id,
        content,
        b.kind,
        b.owner,
        format_time(b.created_at),
        format_time(e.recorded_at),
        INITIAL_STABILITY_DAYS,
        b.supersedes_id,
    ]
    # Only a fact with attributes names the columns of migration 0012 (the guide's facts
    # are written by migration 0003, before them).
    stored = (
        _valid_attributes(b.kind, b.kind_version or 1, b.attributes, content)
        if (b.attributes)
        else None
    )
    if stored is not None:
        cols += ["attributes", "kind_version"]
        values.extend(stored)
    if b.visibility is not None:  # the column of migration 0015; shared is NULL
        cols.append("visibility")
        values.append(b.visibility)
    if b.lifetime is not None:  # only a non-standard lifetime names 0014's columns
        cols += ["lifetime", "lifetime_until", "expires_at"]
        values.extend(_lifetime_columns(b.lifetime, b.kind, e))
    from embornal.domain.confidence import prior  # stores only: off the read path

    start = b.confidence if b.confidence is not None else prior(e.actor_kind)
    cols += LATE_COLUMNS
    values += [start, tag_text(b.tags)]
    return cols, values


def _fact_stored(conn: Connection, e: Event, b: FactStored) -> None:
    cols, values = fact_row(e, b, ensure_path(conn, b.path))
    while True:
        try:
            cur = conn.execute(
                f"INSERT INTO facts ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                values,
            )
            break
        except DriverError as err:
            missing = [i for i, n in enumerate(cols) if n in LATE_COLUMNS and n in str(err)]
            if not missing:
                raise
            del cols[missing[0] :], values[missing[0] :]  # that migration and later: not yet
    seq = int(cur.lastrowid)
    conn.executemany(
        "INSERT INTO fact_tags (fact_id, key, value) VALUES (?, ?, ?)",
        [(b.fact_id, t.key, t.value) for t in b.tags],
    )
    fts_insert(conn, seq, b.content or "")
    if b.supersedes_id:
        conn.execute(
            "UPDATE facts SET superseded_by = ? WHERE id = ?", (b.fact_id, b.supersedes_id)
        )
    fact_extras(conn, e, b)


def fact_extras(conn: Connection, e: Event, b: FactStored) -> None:
    """The allow list and the evidence rows of a fact just stored (after its row)."""
    _allow_list(conn, b.fact_id, b.visibility)
    if b.evidence_types:  # evidence given at creation: no confidence step, no confirmation
        n = len(b.evidence_types)
        texts = zip(b.evidence_values or ("",) * n, b.evidence_notes or ("",) * n, strict=False)
        conn.executemany(
            "INSERT INTO fact_evidence (fact_id, seq, evidence_type, value, note, recorded_at, "
            "actor) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (b.fact_id, i, t, v or "", note or None, format_time(e.recorded_at), e.actor)
                for i, (t, (v, note)) in enumerate(zip(b.evidence_types, texts, strict=False), 1)
            ],
        )


def _allow_list(conn: Connection, fact_id: str, visibility: str | None) -> None:
    """The allow-list rows of a restricted fact (decision 0038)."""
    if visibility is None or not visibility.startswith("restricted:"):
        return
    names = sorted(set(visibility.removeprefix("restricted:").split(",")))
    conn.executemany(
        "INSERT INTO fact_visibility_allow (fact_id, subject) VALUES (?, ?)",
        [(fact_id, n) for n in names],
    )


def _fact_visibility_changed(conn: Connection, e: Event, b: FactVisibilityChanged) -> None:
    from embornal.domain.spine import stored_visibility

    stored = stored_visibility(b.visibility)
    conn.execute("UPDATE facts SET visibility = ? WHERE id = ?", (stored, b.fact_id))
    conn.execute("DELETE FROM fact_visibility_allow WHERE fact_id = ?", (b.fact_id,))
    _allow_list(conn, b.fact_id, stored)


def _lifetime_columns(text: str, kind: str, e: Event) -> tuple[str, str | None, str | None]:
    """``(lifetime, lifetime_until, expires_at)`` set by ``e``: an ephemeral horizon
    counts from the event (decision 0035; :func:`embornal.domain.confidence.expires_at`)."""
    from embornal.domain.confidence import expires_at
    from embornal.domain.spine import read_lifetime

    lifetime = read_lifetime(text)
    end = expires_at(lifetime, kind, e.recorded_at)
    until = lifetime.until.isoformat() if lifetime.until is not None else None
    return lifetime.policy.value, until, None if end is None else format_time(end)


def _importance_adjusted(conn: Connection, e: Event, b: FactImportanceAdjusted) -> None:
    conn.execute(
        "UPDATE facts SET pinned = ?, user_weight = ? WHERE id = ?",
        (int(b.pinned), b.user_weight, b.fact_id),
    )


def _lifetime_changed(conn: Connection, e: Event, b: FactLifetimeChanged) -> None:
    row = conn.execute("SELECT kind FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None:
        return
    conn.execute(
        "UPDATE facts SET lifetime = ?, lifetime_until = ?, expires_at = ? WHERE id = ?",
        (*_lifetime_columns(b.lifetime, row[0], e), b.fact_id),
    )


def _fact_attributes_updated(conn: Connection, e: Event, b: FactAttributesUpdated) -> None:
    row = conn.execute(
        "SELECT kind, kind_version, attributes, content FROM facts "
        "WHERE id = ? AND purged_at IS NULL",
        (b.fact_id,),
    ).fetchone()
    if row is None or b.changes is None:  # purged: its changes were redacted
        return
    from embornal.domain.kinds.registry import KINDS

    merged: dict[str, Any] = json.loads(row[2]) if row[2] else {}
    if merged and row[0] in KINDS:
        merged = KINDS.upcast(row[0], int(row[1] or 1), merged)[1]
    for name, value in b.changes.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    stored = _valid_attributes(row[0], b.kind_version, merged, row[3]) if merged else None
    conn.execute(
        "UPDATE facts SET attributes = ?, kind_version = ? WHERE id = ?",
        (*(stored or (None, None)), b.fact_id),
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


def _fact_forgotten(conn: Connection, e: Event, b: FactForgotten) -> None:
    when = format_time(e.recorded_at)
    conn.execute("UPDATE facts SET deleted_at = ? WHERE id = ?", (when, b.fact_id))
    _set_superseder(conn, b.fact_id, live=False)


def _fact_restored(conn: Connection, e: Event, b: FactRestored) -> None:
    conn.execute("UPDATE facts SET deleted_at = NULL WHERE id = ?", (b.fact_id,))
    _set_superseder(conn, b.fact_id, live=True)


def _fact_purged(conn: Connection, e: Event, b: FactPurged) -> None:
    fid = b.fact_id
    row = conn.execute("SELECT seq, deleted_at FROM facts WHERE id = ?", (fid,)).fetchone()
    if row is None:
        return
    when = format_time(e.recorded_at)
    conn.execute("DELETE FROM facts_fts WHERE rowid = ?", (row[0],))
    conn.execute("UPDATE counters SET value = value - 1 WHERE name = 'fts_docs'")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'facts_vec'").fetchone():
        conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (row[0],))
    conn.execute("DELETE FROM fact_tags WHERE fact_id = ? AND key <> 'owner'", (fid,))
    conn.execute(  # the owner's tag is all that is left of the tag text (0028)
        "UPDATE facts SET tag_text = 'owner' || char(31) || owner WHERE id = ?", (fid,)
    )
    conn.execute("DELETE FROM fact_pieces WHERE fact_id = ?", (fid,))
    conn.execute("UPDATE fact_evidence SET value = '', note = NULL WHERE fact_id = ?", (fid,))
    conn.execute(
        "UPDATE facts SET content = '', attributes = NULL, kind_version = NULL, embedding = NULL, "
        "purged_at = ?, "
        "deleted_at = coalesce(deleted_at, ?) WHERE id = ?",
        (when, when, fid),
    )
    _set_superseder(conn, fid, live=False)
    from embornal.storage import canon, protocol  # a purge: off the path of other writes

    protocol.purged(conn, fid)
    canon.purged(conn, fid)


# The confidence step of each vouching event (names of ``confidence.StepKind``).
_STEPS = {
    EventType.FACT_CONFIRMED.value: "confirm",
    EventType.FACT_CONTRADICTED.value: "contradict",
    EventType.FACT_EVIDENCE_ADDED.value: "evidence",
}


def _vouched(
    conn: Connection, e: Event, b: FactConfirmed | FactContradicted | FactEvidenceAdded
) -> None:
    """One step of the confidence maths in log order (the weight of the envelope's actor
    kind, never stored); a confirm or evidence dates ``last_confirmed_at`` and, but for a
    contradiction's, its evidence joins ``fact_evidence`` (a purged value as '')."""
    row = conn.execute("SELECT confidence FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None or row[0] is None:
        return
    from embornal.domain import confidence as C  # writes that vouch: off the read path

    step = C.ConfidenceStep(C.StepKind(_STEPS[b.TYPE]), ActorKind(e.actor_kind))
    c = C.fold_confidence(float(row[0]), [step])
    if b.TYPE == EventType.FACT_CONTRADICTED:
        conn.execute("UPDATE facts SET confidence = ? WHERE id = ?", (c, b.fact_id))
        return
    when = format_time(e.recorded_at)
    conn.execute(
        "UPDATE facts SET confidence = ?, last_confirmed_at = ? WHERE id = ?",
        (c, when, b.fact_id),
    )
    if b.evidence_type is None:
        return
    conn.execute(
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
            b.fact_id,
        ),
    )


def _confidence_reset(conn: Connection, e: Event, b: FactConfidenceReset) -> None:
    """An undo's reset: the confidence and last confirmation it names (evidence stays)."""
    when = None if b.last_confirmed_at is None else format_time(b.last_confirmed_at)
    conn.execute(
        "UPDATE facts SET confidence = ?, last_confirmed_at = ? WHERE id = ? "
        "AND confidence IS NOT NULL",
        (b.confidence, when, b.fact_id),
    )


def _facts_recalled(conn: Connection, e: Event, b: FactsRecalled) -> None:
    ids = b.fact_ids
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
        after = reinforce(before, b.at)
        assert after.last_recall_at is not None
        updates.append(
            (format_time(after.last_recall_at), after.recall_count, after.stability_days, r[0])
        )
    conn.executemany(
        "UPDATE facts SET last_recall_at = ?, recall_count = ?, stability_days = ? WHERE id = ?",
        updates,
    )


def _path_tagged(conn: Connection, e: Event, b: PathTagged) -> None:
    path_id = ensure_path(conn, b.path)
    conn.executemany(
        "INSERT INTO path_tags (path_id, tagger, key, value) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (path_id, tagger, key) DO UPDATE SET value = excluded.value",
        [(path_id, e.actor, t.key, t.value) for t in b.tags],
    )


def _path_untagged(conn: Connection, e: Event, b: PathUntagged) -> None:
    row = conn.execute("SELECT id FROM paths WHERE path = ?", (b.path,)).fetchone()
    if row is None:
        return
    conn.executemany(
        "DELETE FROM path_tags WHERE path_id = ? AND tagger = ? AND key = ?",
        [(row[0], e.actor, k) for k in b.keys],
    )


def _rule_values(values: tuple[str, ...]) -> tuple[str, ...]:
    padded = [*values, "", "", "", "", "", ""][:6]
    return tuple(padded)


def _policy_added(conn: Connection, e: Event, b: PolicyAdded) -> None:
    conn.execute(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (b.ptype, *_rule_values(b.values)),
    )
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _policy_removed(conn: Connection, e: Event, b: PolicyRemoved) -> None:
    conn.execute(
        "DELETE FROM casbin_rule WHERE ptype = ? AND v0 = ? AND v1 = ? AND v2 = ? AND v3 = ? "
        "AND v4 = ? AND v5 = ?",
        (b.ptype, *_rule_values(b.values)),
    )
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _token_issued(conn: Connection, e: Event, b: TokenIssued) -> None:
    conn.execute(
        "INSERT INTO tokens (id, subject, name, token_hash, created_at, expires_at, actor_kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            b.token_id,
            b.subject,
            b.name,
            b.token_hash,
            format_time(e.recorded_at),
            format_time(b.expires_at) if b.expires_at is not None else None,
            b.actor_kind or "assistant",
        ),
    )


def _token_revoked(conn: Connection, e: Event, b: TokenRevoked) -> None:
    conn.execute(
        "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        (format_time(e.recorded_at), b.token_id),
    )


#: The projection of each stored type (the classes themselves are not imported here): the
#: core's from the start, an area's added the first time one of its events is applied.
_HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
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
}


def handler(event_type: str) -> Callable[[Connection, Event, Any], None]:
    """The projection of ``event_type``, its area's module imported on first need."""
    found = _HANDLERS.get(event_type)
    if found is None:
        area = import_module(AREAS[event_type])
        _HANDLERS.update(area.HANDLERS)
        found = _HANDLERS[event_type]
    return found


def apply(conn: Connection, event: Event) -> None:
    """Apply one event to the projections (unknown types are ignored: newer writers)."""
    if not EVENTS.knows(event.type):
        return
    body = event.body
    docs = _DOCS.get()
    if docs is not None and (
        event.type != EventType.FACT_STORED.value or getattr(body, "supersedes_id", None)
    ):  # what this event does may read or change what waits
        _write_docs(conn, docs)
        history.flush(conn)
    handler(event.type)(conn, event, body)
    conflict_projection.after(conn, event, body)  # entity keys (decision 0059)
    history.after(conn, event, body)  # the intervals of what it changed (decision 0041)


def clear_projections(conn: Connection) -> None:
    """Empty every projection (keeping the root path) before a replay."""
    conn.execute("DELETE FROM facts_fts")
    conn.execute("UPDATE counters SET value = 0 WHERE name IN ('fts_docs', 'policy_version')")
    for table in projection_tables():
        conn.execute(f"DELETE FROM {table}")
    conn.execute(
        "INSERT INTO paths (id, parent_id, name, path, depth) VALUES (1, NULL, '', '/', 0)"
    )
    conn.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) VALUES (1, 1, 0)"
    )
