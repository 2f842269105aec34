"""Named, forward-only migrations, each in its own transaction, recorded in a table.

A migration is ``schema`` (DDL) or ``data`` (writes events through the
projector, like the guide under ``/memory``). ``verify`` builds a scratch
database from the schema migrations alone and replays the live log into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from embornal.domain.clock import Clock, format_time
from embornal.domain.recall.text import TOKENIZER_VERSION
from embornal.domain.records import record
from embornal.errors import EmbornalError, MigrationError, StorageError
from embornal.hints import TYPE_CHECKING, Generic, TypeVar
from embornal.storage.sqlite.connect import Connection, DriverError, atomic

if TYPE_CHECKING:
    from embornal.domain.events import NewEvent

__all__ = [
    "MIGRATIONS",
    "Migration",
    "applied",
    "default_policy_events",
    "failing_as_migration",
    "migrate",
    "pending",
]


C = TypeVar("C")


@record
class Migration(Generic[C]):
    """One named, forward-only migration, run on a connection ``C`` of its backend (this
    one's, or PostgreSQL's: :mod:`embornal.storage.postgres.migrations`)."""

    name: str
    kind: str  # "schema" or "data"
    run: Callable[[C, Clock], None]


@contextmanager
def failing_as_migration(
    name: str,
    driver_error: type[Exception] | tuple[type[BaseException], ...],
    wrapped: type[EmbornalError],
) -> Iterator[None]:
    """A driver's error, or one of ``wrapped`` (a :class:`MigrationError` as it is), raised
    in the block as a :class:`MigrationError` saying that the migration ``name`` failed."""
    try:
        yield
    except driver_error as e:
        raise MigrationError(f"migration {name} failed: {e}") from e
    except wrapped as e:
        if isinstance(e, MigrationError):
            raise
        raise MigrationError(f"migration {name} failed: {e.message}") from e


def _sql(name: str) -> Callable[[Connection, Clock], None]:
    def run(conn: Connection, clock: Clock) -> None:
        from importlib import resources  # only when a migration runs: it imports tempfile

        text = resources.files("embornal.storage").joinpath(f"sql/{name}.sql").read_text("utf-8")
        for statement in _split(text):
            conn.execute(statement)

    return run


def _split(script: str) -> list[str]:
    """Split a SQL script into statements (``complete_statement`` keeps triggers whole)."""
    import sqlean

    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        if not buf and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buf += line
        if sqlean.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def _meta(conn: Connection, clock: Clock) -> None:
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        [("created_at", format_time(clock.now())), ("fts_tokenizer", TOKENIZER_VERSION)],
    )


def _guide(conn: Connection, clock: Clock) -> None:
    from embornal.storage.common.guide import write_guide

    write_guide(conn, clock)


def _anchor_guide(conn: Connection, clock: Clock) -> None:
    """0030: the guide under ``/memory`` pinned and permanent, through the events that
    do it (decision 0154), in a new memory as in an older one."""
    from embornal.storage.common.guide import anchor_guide

    anchor_guide(conn, clock)


def default_policy_events(clock: Clock) -> list[NewEvent]:
    """The events that write a new memory's default rules (any backend appends them)."""
    from embornal.domain.access.rules import DEFAULT_RULES
    from embornal.domain.events import PolicyAdded
    from embornal.storage.common.guide import system_event

    now = clock.now()
    why = "default policies of a new memory"
    return [
        system_event("policy", PolicyAdded(ptype=rule.ptype, values=tuple(rule.values)), now, why)
        for rule in DEFAULT_RULES
    ]


def _default_policies(conn: Connection, clock: Clock) -> None:
    from embornal.storage.sqlite.eventlog import append

    append(conn, default_policy_events(clock))


def _path_tags_by_tagger(conn: Connection, clock: Clock) -> None:
    from embornal.domain.events import EventType
    from embornal.storage.sqlite import eventlog, projector

    _sql("0010_path_tags_by_tagger")(conn, clock)
    kinds = (EventType.PATH_TAGGED, EventType.PATH_UNTAGGED)
    for event in eventlog.read_all(conn):
        if event.type in kinds:
            projector.apply(conn, event)


def _kind_attributes(conn: Connection, clock: Clock) -> None:
    """0012: the kind's schema version beside ``facts.attributes``, a view per kind and
    indexes on hot fields (:mod:`embornal.storage.common.kind_views`). No fact stored attributes
    before (the Python API could not set them), so no row changes."""
    from embornal.storage.common import kind_views

    conn.execute("ALTER TABLE facts ADD COLUMN kind_version INTEGER")
    conn.execute("UPDATE facts SET kind_version = 1 WHERE attributes IS NOT NULL")
    kind_views.create_views(conn)


def _confidence_evidence(conn: Connection, clock: Clock) -> None:
    """0013: ``facts.confidence`` and ``last_confirmed_at``, the ``fact_evidence`` table,
    the kinds' views again with the new columns. No fact had a confidence event before,
    nor a confidence given at creation: each existing fact starts at the prior of the
    actor kind of its ``FactStored`` (derived from the log, which is not rewritten), as a
    replay by the projector gives it."""
    from embornal.domain.spine.confidence import DEFAULT_CONFIDENCE
    from embornal.storage.common import kind_views

    _sql("0013_confidence_evidence")(conn, clock)
    conn.executemany(
        "UPDATE facts SET confidence = ? WHERE confidence IS NULL AND id IN (SELECT stream_id "
        "FROM events WHERE version = 1 AND type = 'FactStored' AND actor_kind = ?)",
        [(p, kind) for kind, p in DEFAULT_CONFIDENCE.priors.items()],
    )
    kind_views.create_views(conn)


def _importance_lifetime(conn: Connection, clock: Clock) -> None:
    """0014: ``facts.pinned``, ``user_weight``, ``lifetime``, ``lifetime_until`` and ``expires_at``
    and the kinds' views again with them. No event set them before, so every existing fact
    takes the defaults (not pinned, no weight, standard), as a replay gives it."""
    from embornal.storage.common import kind_views

    _sql("0014_importance_lifetime")(conn, clock)
    kind_views.create_views(conn)


def _visibility(conn: Connection, clock: Clock) -> None:
    """0015: ``facts.visibility`` (NULL: shared) and ``fact_visibility_allow``, the kinds'
    views again with the new column. Every fact stored before is shared (its FactStored
    has no visibility), so no row changes."""
    from embornal.storage.common import kind_views

    _sql("0015_visibility")(conn, clock)
    kind_views.create_views(conn)


def _history(conn: Connection, clock: Clock) -> None:
    """0016: the history tables (decision 0041). Their rows for the log written so far are
    filled in when the store opens, after every migration (``history.fill_in``): a replay
    needs every projection table of this build, some of which later migrations make."""
    from embornal.storage.common import history
    from embornal.storage.sqlite import vectors

    _sql("0016_history")(conn, clock)
    vectors.set_meta(conn, history.PENDING_KEY, "1")


def _find_indexes(conn: Connection, clock: Clock) -> None:
    """0017: each hot field's index on (value, created_at, id) in place of the value alone,
    so that ``find`` reads an equality's matches in its order and stops at its limit (the
    index on (kind, created_at) of 0016 made the planner walk every fact of the kind)."""
    from embornal.storage.common import kind_views

    kind_views.create_views(conn)


def _conflicts(conn: Connection, clock: Clock) -> None:
    """0020: the conflicts, their members and the entity keys (decision 0059); the keys of
    the entity facts stored before are written from their rows, as a replay would."""
    from embornal.storage.common import conflicts as conflict_projection

    _sql("0020_conflicts")(conn, clock)
    conflict_projection.fill_entity_keys(conn)


MIGRATIONS: tuple[Migration[Connection], ...] = (
    Migration("0001_initial", "schema", _sql("0001_initial")),
    Migration("0002_meta", "schema", _meta),
    Migration("0003_memory_guide", "data", _guide),
    Migration("0004_access", "schema", _sql("0004_access")),
    Migration("0005_default_policies", "data", _default_policies),
    Migration("0006_keyword_index", "schema", _sql("0006_keyword_index")),
    Migration("0007_log_guards", "schema", _sql("0007_log_guards")),
    Migration("0008_vector_revision", "schema", _sql("0008_vector_revision")),
    Migration("0009_fact_pieces", "schema", _sql("0009_fact_pieces")),
    Migration("0010_path_tags_by_tagger", "schema", _path_tags_by_tagger),
    Migration("0011_redacted_reasons", "schema", _sql("0011_redacted_reasons")),
    Migration("0012_kind_attributes", "schema", _kind_attributes),
    Migration("0013_confidence_evidence", "schema", _confidence_evidence),
    Migration("0014_importance_lifetime", "schema", _importance_lifetime),
    Migration("0015_visibility", "schema", _visibility),
    Migration("0016_history", "schema", _history),
    Migration("0017_find_indexes", "schema", _find_indexes),
    Migration("0018_links", "schema", _sql("0018_links")),
    Migration("0019_proposals", "schema", _sql("0019_proposals")),
    Migration("0020_conflicts", "schema", _conflicts),
    Migration("0022_history_protocol", "schema", _sql("0022_history_protocol")),
    Migration("0023_strongest_indexes", "schema", _sql("0023_strongest_indexes")),
    Migration("0024_canon_frames", "schema", _sql("0024_canon_frames")),
    Migration("0025_claims", "schema", _sql("0025_claims")),
    Migration("0026_narratives", "schema", _sql("0026_narratives")),
    Migration("0027_history_context", "schema", _sql("0027_history_context")),
    Migration("0028_fact_tag_text", "schema", _sql("0028_fact_tag_text")),
    Migration("0029_anchor_index_path", "schema", _sql("0029_anchor_index_path")),
    Migration("0030_token_actor_kind", "schema", _sql("0030_token_actor_kind")),
    Migration("0031_guide_anchors", "data", _anchor_guide),
    Migration("0032_capture_material", "schema", _sql("0032_capture_material")),
)


def _ensure_table(conn: Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )


def applied(conn: Connection) -> list[str]:
    _ensure_table(conn)
    return [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY rowid")]


def pending(conn: Connection) -> list[Migration[Connection]]:
    done = set(applied(conn))
    return [m for m in MIGRATIONS if m.name not in done]


def migrate(conn: Connection, clock: Clock, *, include_data: bool = True) -> list[str]:
    """Apply the pending migrations in order; return their names."""
    ran: list[str] = []
    for m in pending(conn):
        if m.kind == "data" and not include_data:
            continue
        with (
            failing_as_migration(m.name, DriverError, StorageError),
            atomic(conn, f"migrating ({m.name})"),
        ):
            # Another process may have applied it while we waited for the lock.
            if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (m.name,)).fetchone():
                continue
            m.run(conn, clock)
            conn.execute(
                "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                (m.name, format_time(clock.now())),
            )
        ran.append(m.name)
    return ran
