"""The projection of the core's events (a fact's store, lifecycle, confidence and recalls;
tags; access rules; tokens), written once for both backends (decision 0149, as 0119 wrote
the past reads): plain SQL with ``?`` placeholders over a connection's ``execute`` and
``executemany``, SQLite's own or PostgreSQL's through its dialect
(:class:`embornal.storage.postgres.db.Dialect`).

:data:`HANDLERS` holds the events that touch only plain tables. What each backend writes its
own way is a store's, a purge's and a recall's: the row and its keyword index, the indexes
a purge empties, and (on PostgreSQL) the recalled rows locked in id order. Their handlers
(:mod:`embornal.storage.sqlite.projector`, :mod:`embornal.storage.postgres.projector`) are made of
the parts here: :func:`fact_row`, :func:`fact_rest`, :func:`purge_rest`, :func:`recalled`.

Every other event is an area's, projected by the ``HANDLERS`` of the module of this package
named as the module of :mod:`embornal.domain.events` that declares its class
(``ClaimCreated``, declared in ``domain/events/claims.py``, by ``common/claims.py``):
:func:`area` and :func:`areas` read that from the event classes, so an area's events and
its projection are each written once, in its own modules (decision 0181). A backend
imports an area's module the first time one of its events is applied (SQLite) or all of
them at once (PostgreSQL, through its dialect).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping

from embornal.domain import paths as P
from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import EVENTS, ActorKind, EventType
from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS, Signals, reinforce
from embornal.hints import TYPE_CHECKING, Any

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
    from embornal.domain.facts.tags import Tag

__all__ = [
    "ALLOW_INSERT",
    "CORE_EVENTS",
    "EVIDENCE_INSERT",
    "HANDLERS",
    "LATE_COLUMNS",
    "Handler",
    "allow_rows",
    "area",
    "areas",
    "ensure_path",
    "evidence_rows",
    "fact_extras",
    "fact_rest",
    "fact_row",
    "lifetime_columns",
    "purge_rest",
    "recalled",
    "tag_text",
    "valid_attributes",
]

#: A projection: the connection (``?`` placeholders), the event and its body.
Handler = Callable[[Any, "Event", Any], None]

#: The modules of :mod:`embornal.domain.events` declaring the core's events, which
#: :data:`HANDLERS` and each backend's projector project themselves.
CORE_EVENTS = frozenset(("types", "recalled"))


def area(event_type: str) -> str:
    """The area projecting ``event_type`` (a known type, not the core's): the name of the
    module of :mod:`embornal.domain.events` declaring its class, which is also the name of
    the module of this package whose ``HANDLERS`` projects it (``conflicts`` for
    ``ConflictOpened``)."""
    name = EVENTS.class_of(event_type).__module__.rpartition(".")[2]
    if name in CORE_EVENTS:
        raise LookupError(f"{event_type} is the core's: no area projects it")
    return name


def areas() -> tuple[str, ...]:
    """Every area, by name: the modules of :mod:`embornal.domain.events` declaring an
    event class, the core's left out."""
    found = {cls.__module__.rpartition(".")[2] for cls in EVENTS.classes()}
    return tuple(sorted(found - CORE_EVENTS))


def ensure_path(conn: Any, path: str) -> int:
    """The id of ``path`` (normalized), creating it and every missing ancestor."""
    row = conn.execute("SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
    if row is not None:
        return int(row[0])
    parent = P.parent_of(path)
    assert parent is not None  # the root always exists
    parent_id = ensure_path(conn, parent)
    depth = len(P.segments(path))
    new_id = int(
        conn.execute(
            "INSERT INTO paths (parent_id, name, path, depth) VALUES (?, ?, ?, ?) RETURNING id",
            (parent_id, P.name_of(path), path, depth),
        ).fetchall()[0][0]
    )
    conn.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) "
        "SELECT ancestor_id, ?, ancestor_depth FROM path_closure WHERE descendant_id = ? "
        "UNION ALL SELECT ?, ?, ?",
        (new_id, parent_id, new_id, new_id, depth),
    )
    return new_id


def valid_attributes(
    kind: str, version: int, attributes: Mapping[str, Any], content: str
) -> tuple[str, int] | None:
    """``(JSON text, schema version)`` of the attributes a fact's row stores: upcast to the
    kind's latest version and valid, less a derived statement; None for none (also for a
    kind this build does not register, or a payload that does not validate)."""
    from embornal.domain.facts.attributes import without_derived
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
    of them: :mod:`embornal.storage.common.store_run`); :data:`LATE_COLUMNS` come last."""
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
        valid_attributes(b.kind, b.kind_version or 1, b.attributes, content)
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
        values.extend(lifetime_columns(b.lifetime, b.kind, e))
    from embornal.domain.spine.confidence import prior  # stores only: off the read path

    start = b.confidence if b.confidence is not None else prior(e.actor_kind)
    cols += LATE_COLUMNS
    values += [start, tag_text(b.tags)]
    return cols, values


def fact_rest(conn: Any, e: Event, b: FactStored) -> None:
    """What a store writes after the fact's row and its keyword terms: its tags, its
    predecessor's superseder, its allow list and its evidence."""
    conn.executemany(
        "INSERT INTO fact_tags (fact_id, key, value) VALUES (?, ?, ?)",
        [(b.fact_id, t.key, t.value) for t in b.tags],
    )
    if b.supersedes_id:
        conn.execute(
            "UPDATE facts SET superseded_by = ? WHERE id = ?", (b.fact_id, b.supersedes_id)
        )
    fact_extras(conn, e, b)


ALLOW_INSERT = "INSERT INTO fact_visibility_allow (fact_id, subject) VALUES (?, ?)"
EVIDENCE_INSERT = (
    "INSERT INTO fact_evidence (fact_id, seq, evidence_type, value, note, recorded_at, "
    "actor) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def fact_extras(conn: Any, e: Event, b: FactStored) -> None:
    """The allow list and the evidence rows of a fact just stored (after its row); none
    written, no statement prepared (a data migration's stores come before their tables)."""
    for sql, rows in (
        (ALLOW_INSERT, allow_rows(b.fact_id, b.visibility)),
        (EVIDENCE_INSERT, evidence_rows(e, b)),
    ):
        if rows:
            conn.executemany(sql, rows)


def evidence_rows(e: Event, b: FactStored) -> list[tuple[Any, ...]]:
    """The ``fact_evidence`` rows of evidence given with a store (none: none given); no
    confidence step, no confirmation."""
    if not b.evidence_types:
        return []
    n = len(b.evidence_types)
    texts = zip(b.evidence_values or ("",) * n, b.evidence_notes or ("",) * n, strict=False)
    return [
        (b.fact_id, i, t, v or "", note or None, format_time(e.recorded_at), e.actor)
        for i, (t, (v, note)) in enumerate(zip(b.evidence_types, texts, strict=False), 1)
    ]


def allow_rows(fact_id: str, visibility: str | None) -> list[tuple[str, str]]:
    """The allow-list rows of a restricted fact (decision 0038; none for any other)."""
    if visibility is None or not visibility.startswith("restricted:"):
        return []
    names = sorted(set(visibility.removeprefix("restricted:").split(",")))
    return [(fact_id, n) for n in names]


def _fact_visibility_changed(conn: Any, e: Event, b: FactVisibilityChanged) -> None:
    from embornal.domain.spine.justification import stored_visibility

    stored = stored_visibility(b.visibility)
    conn.execute("UPDATE facts SET visibility = ? WHERE id = ?", (stored, b.fact_id))
    conn.execute("DELETE FROM fact_visibility_allow WHERE fact_id = ?", (b.fact_id,))
    conn.executemany(ALLOW_INSERT, allow_rows(b.fact_id, stored))


def lifetime_columns(text: str, kind: str, e: Event) -> tuple[str, str | None, str | None]:
    """``(lifetime, lifetime_until, expires_at)`` set by ``e``: an ephemeral horizon
    counts from the event (decision 0035; :func:`embornal.domain.spine.confidence.expires_at`)."""
    from embornal.domain.spine.confidence import expires_at
    from embornal.domain.spine.justification import read_lifetime

    lifetime = read_lifetime(text)
    end = expires_at(lifetime, kind, e.recorded_at)
    until = lifetime.until.isoformat() if lifetime.until is not None else None
    return lifetime.policy.value, until, None if end is None else format_time(end)


def _importance_adjusted(conn: Any, e: Event, b: FactImportanceAdjusted) -> None:
    conn.execute(
        "UPDATE facts SET pinned = ?, user_weight = ? WHERE id = ?",
        (int(b.pinned), b.user_weight, b.fact_id),
    )


def _lifetime_changed(conn: Any, e: Event, b: FactLifetimeChanged) -> None:
    row = conn.execute("SELECT kind FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None:
        return
    conn.execute(
        "UPDATE facts SET lifetime = ?, lifetime_until = ?, expires_at = ? WHERE id = ?",
        (*lifetime_columns(b.lifetime, row[0], e), b.fact_id),
    )


def _fact_attributes_updated(conn: Any, e: Event, b: FactAttributesUpdated) -> None:
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
    stored = valid_attributes(row[0], b.kind_version, merged, row[3]) if merged else None
    conn.execute(
        "UPDATE facts SET attributes = ?, kind_version = ? WHERE id = ?",
        (*(stored or (None, None)), b.fact_id),
    )


def _set_superseder(conn: Any, fact_id: str, live: bool) -> None:
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


def _fact_forgotten(conn: Any, e: Event, b: FactForgotten) -> None:
    when = format_time(e.recorded_at)
    conn.execute("UPDATE facts SET deleted_at = ? WHERE id = ?", (when, b.fact_id))
    _set_superseder(conn, b.fact_id, live=False)


def _fact_restored(conn: Any, e: Event, b: FactRestored) -> None:
    conn.execute("UPDATE facts SET deleted_at = NULL WHERE id = ?", (b.fact_id,))
    _set_superseder(conn, b.fact_id, live=True)


def purge_rest(conn: Any, e: Event, fact_id: str, *, also: str = "") -> None:
    """What a purge erases beyond the backend's own indexes (emptied first): the tags but
    the owner's, the evidence's text, the row's text and attributes (and the columns
    ``also`` sets, ``name = NULL, ``), the superseder it held, and what the history
    protocol and the canon keep of it."""
    when = format_time(e.recorded_at)
    conn.execute("DELETE FROM fact_tags WHERE fact_id = ? AND key <> 'owner'", (fact_id,))
    conn.execute(  # the owner's tag is all that is left of the tag text (0028)
        "UPDATE facts SET tag_text = 'owner' || CAST(? AS TEXT) || owner WHERE id = ?",
        ("\x1f", fact_id),
    )
    conn.execute("UPDATE fact_evidence SET value = '', note = NULL WHERE fact_id = ?", (fact_id,))
    conn.execute(
        f"UPDATE facts SET content = '', attributes = NULL, kind_version = NULL, {also}"
        "purged_at = ?, deleted_at = coalesce(deleted_at, ?) WHERE id = ?",
        (when, when, fact_id),
    )
    _set_superseder(conn, fact_id, live=False)
    from embornal.storage.common import canon, protocol  # a purge: off the path of other writes

    protocol.purged(conn, fact_id)
    canon.purged(conn, fact_id)


# The confidence step of each vouching event (names of ``confidence.StepKind``).
_STEPS = {
    EventType.FACT_CONFIRMED: "confirm",
    EventType.FACT_CONTRADICTED: "contradict",
    EventType.FACT_EVIDENCE_ADDED: "evidence",
}


def _vouched(conn: Any, e: Event, b: FactConfirmed | FactContradicted | FactEvidenceAdded) -> None:
    """One step of the confidence maths in log order (the weight of the envelope's actor
    kind, never stored); a confirm or evidence dates ``last_confirmed_at`` and, but for a
    contradiction's, its evidence joins ``fact_evidence`` (a purged value as '')."""
    row = conn.execute("SELECT confidence FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None or row[0] is None:
        return
    from embornal.domain.spine import confidence as C  # writes that vouch: off the read path

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


def _confidence_reset(conn: Any, e: Event, b: FactConfidenceReset) -> None:
    """An undo's reset: the confidence and last confirmation it names (evidence stays)."""
    when = None if b.last_confirmed_at is None else format_time(b.last_confirmed_at)
    conn.execute(
        "UPDATE facts SET confidence = ?, last_confirmed_at = ? WHERE id = ? "
        "AND confidence IS NOT NULL",
        (b.confidence, when, b.fact_id),
    )


def recalled(conn: Any, b: FactsRecalled, *, lock: str = "") -> None:
    """The recalled facts reinforced (their rows read with ``lock`` after the query)."""
    ids = list(b.fact_ids)
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT id, created_at, last_recall_at, recall_count, stability_days "
        f"FROM facts WHERE id IN ({marks}){lock}",
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


def _path_tagged(conn: Any, e: Event, b: PathTagged) -> None:
    path_id = ensure_path(conn, b.path)
    conn.executemany(
        "INSERT INTO path_tags (path_id, tagger, key, value) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (path_id, tagger, key) DO UPDATE SET value = excluded.value",
        [(path_id, e.actor, t.key, t.value) for t in b.tags],
    )


def _path_untagged(conn: Any, e: Event, b: PathUntagged) -> None:
    row = conn.execute("SELECT id FROM paths WHERE path = ?", (b.path,)).fetchone()
    if row is None:
        return
    conn.executemany(
        "DELETE FROM path_tags WHERE path_id = ? AND tagger = ? AND key = ?",
        [(row[0], e.actor, k) for k in b.keys],
    )


def _rule_changed(conn: Any, sql: str, b: PolicyAdded | PolicyRemoved) -> None:
    """``sql`` over the rule's row (its type and six values, blank past its own), then the
    policy version moved on."""
    values = [*b.values, "", "", "", "", "", ""][:6]
    conn.execute(sql, (b.ptype, *values))
    conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'policy_version'")


def _policy_added(conn: Any, e: Event, b: PolicyAdded) -> None:
    _rule_changed(
        conn,
        "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        b,
    )


def _policy_removed(conn: Any, e: Event, b: PolicyRemoved) -> None:
    _rule_changed(
        conn,
        "DELETE FROM casbin_rule WHERE ptype = ? AND v0 = ? AND v1 = ? AND v2 = ? AND v3 = ? "
        "AND v4 = ? AND v5 = ?",
        b,
    )


def _token_issued(conn: Any, e: Event, b: TokenIssued) -> None:
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


def _token_revoked(conn: Any, e: Event, b: TokenRevoked) -> None:
    conn.execute(
        "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        (format_time(e.recorded_at), b.token_id),
    )


#: The core's projections that write plain tables only (a backend adds its own store,
#: purge and recall).
HANDLERS: dict[str, Handler] = {
    EventType.FACT_ATTRIBUTES_UPDATED: _fact_attributes_updated,
    EventType.FACT_FORGOTTEN: _fact_forgotten,
    EventType.FACT_RESTORED: _fact_restored,
    EventType.FACT_CONFIRMED: _vouched,
    EventType.FACT_CONTRADICTED: _vouched,
    EventType.FACT_EVIDENCE_ADDED: _vouched,
    EventType.FACT_CONFIDENCE_RESET: _confidence_reset,
    EventType.FACT_VISIBILITY_CHANGED: _fact_visibility_changed,
    EventType.FACT_IMPORTANCE_ADJUSTED: _importance_adjusted,
    EventType.FACT_LIFETIME_CHANGED: _lifetime_changed,
    EventType.PATH_TAGGED: _path_tagged,
    EventType.PATH_UNTAGGED: _path_untagged,
    EventType.POLICY_ADDED: _policy_added,
    EventType.POLICY_REMOVED: _policy_removed,
    EventType.TOKEN_ISSUED: _token_issued,
    EventType.TOKEN_REVOKED: _token_revoked,
}
