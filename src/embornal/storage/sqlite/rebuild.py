"""``embornal admin rebuild``: replay the whole log into fresh projections beside the live
ones, then swap them in, so writers and readers go on meanwhile (decision 0014).

On a connection of its own (foreign keys off, legacy renames: a rename rewrites no view,
trigger or reference, so the names resolve to whichever table holds them):

1. Replay. The log up to position P (its end when the rebuild starts) is replayed into
   TEMP copies of the projection tables. A temp table shadows the main one of its name, so
   the projector runs unchanged; the keyword index is kept there as the plain derived text
   of each document. Only reads of the file: nobody waits.
2. Stage. The copies are written into work tables of the file (``rebuild_new_*``, the
   keyword index a real FTS5 table) in short write transactions. Each fact takes its vector
   and ``vec_rev`` from the live row of its id.
3. Swap, in one short write transaction: the live tables are renamed ``rebuild_old_*`` and
   the new ones take their names; the events after P (written meanwhile) are replayed into
   them; vectors written or cleared meanwhile are taken from the old rows; the indexes are
   made again under their own names.
4. Clean. The old tables are emptied in short transactions (``secure_delete`` zeroes them)
   and dropped.

Vectors are derived from the model, not from events, and are kept. A fact keeps its seq
(facts are numbered in log order both ways), so ``facts_vec`` and every in-process bit
index stay valid and its ``vec_rev`` is kept; a fact whose seq differs (a damaged file) is
written again with a revision above every earlier one. ``fact_pieces`` is left as it is.

A claim in ``meta`` names the running rebuild; a purge (or a newer rebuild) drops the work
tables and the claim, and the rebuild stops at its next step without touching the live
tables. A crash leaves the live tables whole (the swap is one transaction); the work
tables it leaves are dropped by the next rebuild or purge.

A shared in-memory database (no second connection can see it) is replayed in place, in
the caller's transaction (:func:`replay_in_place`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from embornal.domain.events import Event, EventType, FactStored
from embornal.errors import StorageError
from embornal.storage.sqlite import eventlog, projector, vectors
from embornal.storage.sqlite.connect import Connection, DriverError, atomic, connect, translate

__all__ = [
    "CLAIM_KEY",
    "NEW",
    "OLD",
    "Progress",
    "RebuildResult",
    "drop_scratch",
    "drop_work_tables",
    "make_scratch",
    "rebuild_beside",
    "replay_in_place",
]

Progress = Callable[[str, int, int], None]  # (step, done, total)
Applier = Callable[[Connection, Event], None]  # one event into the projections

NEW = "rebuild_new_"
OLD = "rebuild_old_"
CLAIM_KEY = "rebuild_claim"
FTS = "facts_fts"
# The tables swapped: every projection and the keyword index (``counters`` is copied).
SWAPPED = (*projector.PROJECTION_TABLES, FTS)
_REPLAY_BATCH = 5000
_COPY_BATCH = 500


@dataclass(frozen=True)
class RebuildResult:
    events: int  # replayed in all
    during: int  # of which written while the rebuild ran
    purged: bool  # a purge ran meanwhile: the keyword index was merged, the file owes a checkpoint


class Interrupted(StorageError):
    """The work tables were dropped under the rebuild (a purge, or a newer rebuild)."""


def _interrupted() -> Interrupted:
    return Interrupted(
        "the rebuild was interrupted: a purge or another rebuild dropped its work tables",
        hint="Nothing changed; run `embornal admin rebuild` again.",
    )


# -- names and DDL ------------------------------------------------------------------------


def _table_sql(conn: Connection, name: str) -> str:
    row = conn.execute(
        "SELECT sql FROM main.sqlite_master WHERE name = ? AND type = 'table'", (name,)
    ).fetchone()
    if row is None:
        raise StorageError(f"the table {name} is missing", hint="Run `embornal admin migrate`.")
    return str(row[0])


def _renamed(sql: str, name: str, new: str) -> str:
    """``sql`` (a CREATE [VIRTUAL] TABLE of ``name``) creating ``new`` instead."""
    out, n = re.subn(
        rf'^(CREATE\s+(?:VIRTUAL\s+)?TABLE\s+)(?:"{name}"|{name}\b)', rf"\g<1>{new}", sql, count=1
    )
    if n != 1:
        raise StorageError(f"cannot read the definition of {name}")
    return out


def _exists(conn: Connection, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM main.sqlite_master WHERE name = ?", (name,)).fetchone()
    return row is not None


def drop_work_tables(conn: Connection) -> None:
    """Drop the work tables of a rebuild (running or crashed) and its claim, inside the
    caller's write transaction."""
    for prefix in (NEW, OLD):
        for name in SWAPPED:
            conn.execute(f"DROP TABLE IF EXISTS main.{prefix}{name}")
    conn.execute("DELETE FROM main.meta WHERE key = ?", (CLAIM_KEY,))


@contextmanager
def _claimed(conn: Connection, claim: str, doing: str) -> Iterator[Connection]:
    """A short write transaction that goes on only while the claim is still ours."""
    with atomic(conn, doing):
        row = conn.execute("SELECT value FROM main.meta WHERE key = ?", (CLAIM_KEY,)).fetchone()
        if row is None or row[0] != claim:
            raise _interrupted()
        yield conn


# -- the steps ----------------------------------------------------------------------------


def rebuild_beside(path: str, *, progress: Progress | None = None) -> RebuildResult:
    """Rebuild the projections of the database file at ``path`` (see the module text)."""
    report = progress or (lambda step, done, total: None)
    conn = connect(path)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("PRAGMA legacy_alter_table = ON")
        import secrets  # here: hmac/OpenSSL would cost every start-up

        claim = secrets.token_hex(8)
        with atomic(conn, "starting a rebuild"):
            drop_work_tables(conn)  # a crashed rebuild's, or one this claim replaces
            vectors.set_meta(conn, CLAIM_KEY, claim)
            top = int(conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
        _make_scratch(conn)
        replayed = _replay(conn, top, report)
        moved, rev0 = _stage(conn, claim, report)
        during, purged = _swap(conn, claim, top, moved, rev0)
        _clean(conn, claim, report)
        return RebuildResult(replayed + during, during, purged)
    except DriverError as e:
        raise translate(e, "rebuilding projections") from e
    finally:
        conn.close()


def _make_scratch(conn: Connection) -> None:
    """TEMP tables of the projections' names, shadowing them on this connection."""
    for name in (*projector.PROJECTION_TABLES, "counters", "fact_pieces"):
        conn.execute(_renamed(_table_sql(conn, name), name, f"temp.{name}"))
    conn.execute(f"CREATE TABLE temp.{FTS} (body TEXT)")  # each document's derived text
    conn.execute("CREATE TABLE temp.facts_vec (embedding BLOB)")  # purges delete from it
    conn.execute("CREATE TABLE temp.rebuild_moved (id TEXT PRIMARY KEY)")
    conn.execute("INSERT INTO temp.counters (name, value) SELECT name, 0 FROM main.counters")
    projector.clear_projections(conn)  # the root path


make_scratch = _make_scratch
_SCRATCH = (*SWAPPED, "counters", "fact_pieces", "facts_vec", "rebuild_moved")


def drop_scratch(conn: Connection) -> None:
    """Drop the TEMP copies :func:`make_scratch` made."""
    for name in _SCRATCH:
        conn.execute(f"DROP TABLE IF EXISTS temp.{name}")


def _replay(conn: Connection, top: int, report: Progress) -> int:
    total = int(
        conn.execute("SELECT count(*) FROM events WHERE position <= ?", (top,)).fetchone()[0]
    )
    done = 0
    report("replaying events", 0, total)
    events = eventlog.read_all(conn, until=top)
    while True:
        conn.execute("BEGIN")  # writes the temp tables only: takes no lock of the file
        try:
            n = 0
            for event in events:
                projector.apply(conn, event)
                n += 1
                if n == _REPLAY_BATCH:
                    break
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        done += n
        report("replaying events", done, total)
        if n < _REPLAY_BATCH:
            return done


def _key_columns(conn: Connection, name: str) -> str:
    """The columns that order ``temp.name`` (rowid, or the primary key of a WITHOUT ROWID
    table)."""
    if name == FTS or "WITHOUT ROWID" not in _table_sql(conn, name).upper():
        return "rowid"
    cols = conn.execute(f"PRAGMA temp.table_info({name})").fetchall()
    return ", ".join(c[1] for c in sorted((c for c in cols if c[5]), key=lambda c: c[5]))


def _insert_sql(conn: Connection, name: str) -> str:
    """Copy the rows of ``temp.name`` (alias ``t``) matching ``{range}`` into its work table;
    a fact takes its vector and revision from the live row of its id."""
    cols = [c[1] for c in conn.execute(f"PRAGMA temp.table_info({name})").fetchall()]
    source = f"temp.{name} t"
    if name == FTS:
        cols = ["rowid", "body"]
    picked = [f"t.{c}" for c in cols]
    if name == "facts":
        source += " LEFT JOIN main.facts m ON m.id = t.id"
        picked = [
            "CASE WHEN t.purged_at IS NULL THEN m.embedding END"
            if c == "embedding"
            else "m.vec_rev"
            if c == "vec_rev"
            else f"t.{c}"
            for c in cols
        ]
    return (
        f"INSERT INTO main.{NEW}{name} ({', '.join(cols)}) SELECT {', '.join(picked)} "
        f"FROM {source} WHERE {{range}}"
    )


def _stage(conn: Connection, claim: str, report: Progress) -> tuple[int, int]:
    """Write the temp copies into the work tables, in short transactions; return how many
    facts changed seq (listed in ``temp.rebuild_moved``) and the vector revision before
    the first copy (every vector written later has a higher one)."""
    with _claimed(conn, claim, "staging a rebuild"):
        rev0 = int(conn.execute("SELECT coalesce(max(vec_rev), 0) FROM main.facts").fetchone()[0])
        for name in projector.PROJECTION_TABLES:
            conn.execute(_renamed(_table_sql(conn, name), name, f"main.{NEW}{name}"))
        conn.execute(_renamed(_table_sql(conn, FTS), FTS, f"main.{NEW}{FTS}"))
    total = sum(int(conn.execute(f"SELECT count(*) FROM temp.{t}").fetchone()[0]) for t in SWAPPED)
    done = 0
    report("copying projections", 0, total)
    for name in SWAPPED:
        keys = _key_columns(conn, name)
        insert = _insert_sql(conn, name)
        qualified = ", ".join(f"t.{k.strip()}" for k in keys.split(","))
        last: tuple[object, ...] | None = None
        while True:
            lower = "1" if last is None else f"({qualified}) > ({', '.join('?' * len(last))})"
            low_params = () if last is None else last
            end = conn.execute(
                f"SELECT {qualified} FROM temp.{name} t WHERE {lower} ORDER BY {qualified} "
                "LIMIT 1 OFFSET ?",
                (*low_params, _COPY_BATCH - 1),
            ).fetchone()
            upper, up_params = "1", ()
            if end is not None:
                upper = f"({qualified}) <= ({', '.join('?' * len(end))})"
                up_params = tuple(end)
            where = f"{lower} AND {upper}"
            params = (*low_params, *up_params)
            with _claimed(conn, claim, "staging a rebuild"):
                conn.execute(insert.replace("{range}", where), params)
                if name == "facts":
                    conn.execute(
                        "INSERT INTO temp.rebuild_moved (id) SELECT t.id FROM temp.facts t "
                        f"LEFT JOIN main.facts m ON m.id = t.id WHERE {where} "
                        "AND m.seq IS NOT t.seq",
                        params,
                    )
            done += _COPY_BATCH if end is not None else 0
            if end is None:
                break
            last = up_params
            report("copying projections", min(done, total), total)
    report("copying projections", total, total)
    return int(conn.execute("SELECT count(*) FROM temp.rebuild_moved").fetchone()[0]), rev0


def _swap(conn: Connection, claim: str, top: int, moved_count: int, rev0: int) -> tuple[int, bool]:
    """The one write transaction that puts the new tables in place; return the number of
    events written meanwhile, and whether one of them was a purge."""
    with _claimed(conn, claim, "swapping in the rebuilt projections"):
        names = ", ".join(f"'{t}'" for t in SWAPPED)
        indexes = conn.execute(
            "SELECT name, sql FROM main.sqlite_master WHERE type = 'index' "
            f"AND tbl_name IN ({names}) AND sql IS NOT NULL"
        ).fetchall()
        conn.execute(
            "UPDATE main.counters SET value = (SELECT t.value FROM temp.counters t "
            "WHERE t.name = main.counters.name) WHERE name IN (SELECT name FROM temp.counters)"
        )
        moved = {r[0] for r in conn.execute("SELECT id FROM temp.rebuild_moved")}
        assert len(moved) == moved_count
        for name in _SCRATCH:
            conn.execute(f"DROP TABLE temp.{name}")
        for name in SWAPPED:
            conn.execute(f"ALTER TABLE main.{name} RENAME TO {OLD}{name}")
            conn.execute(f"ALTER TABLE main.{NEW}{name} RENAME TO {name}")
        during, purged = 0, False
        for event in eventlog.read_all(conn, after=top):
            projector.apply(conn, event)
            during += 1
            if event.type == EventType.FACT_PURGED:
                purged = True
            elif event.type == FactStored.TYPE and isinstance(body := event.body, FactStored):
                moved.add(body.fact_id)  # checked below: usually the same seq
        _take_vectors(conn, moved, rev0)
        for name, sql in indexes:
            conn.execute(f"DROP INDEX main.{name}")
            conn.execute(sql)
        if purged:  # the new keyword index held what the purge erased from the old one
            conn.execute(f"INSERT INTO {FTS} ({FTS}) VALUES ('optimize')")
    return during, purged


def _take_vectors(conn: Connection, moved: set[str], rev0: int) -> None:
    """Vectors written (revision above ``rev0``) or cleared while the rebuild ran, from the
    old rows; a new vector write for each fact whose seq changed."""
    conn.execute(
        f"UPDATE facts SET embedding = o.embedding, vec_rev = o.vec_rev FROM {OLD}facts o "
        "WHERE o.id = facts.id AND o.vec_rev > ? AND facts.purged_at IS NULL",
        (rev0,),
    )
    conn.execute(
        "UPDATE facts SET embedding = NULL WHERE embedding IS NOT NULL AND id IN "
        f"(SELECT id FROM {OLD}facts WHERE embedding IS NULL AND deleted_at IS NULL "
        "AND purged_at IS NULL)"
    )
    if not moved:
        return
    index = vectors.has_index(conn)
    shifted: list[tuple[str, bytes]] = []
    for fact_id in sorted(moved):
        new = conn.execute("SELECT seq, embedding FROM facts WHERE id = ?", (fact_id,)).fetchone()
        old = conn.execute(f"SELECT seq FROM {OLD}facts WHERE id = ?", (fact_id,)).fetchone()
        if new is None or (old is not None and old[0] == new[0]):
            continue
        if index:
            conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (new[0],))
            if old is not None:
                conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (old[0],))
        if new[1] is not None:
            shifted.append((fact_id, new[1]))
    vectors.write_vectors(conn, shifted)


def _clean(conn: Connection, claim: str, report: Progress) -> None:
    """Empty the old tables in short transactions (their freed pages are zeroed), drop
    them and the claim."""
    try:
        total = int(conn.execute(f"SELECT count(*) FROM main.{OLD}facts").fetchone()[0])
        done = 0
        report("removing the old projections", 0, total)
        while True:
            with _claimed(conn, claim, "removing the old projections"):
                n = conn.execute(
                    f"DELETE FROM main.{OLD}facts WHERE seq IN "
                    f"(SELECT seq FROM main.{OLD}facts ORDER BY seq LIMIT ?)",
                    (_COPY_BATCH,),
                ).rowcount
            done += n
            report("removing the old projections", min(done, total), total)
            if n < _COPY_BATCH:
                break
        with _claimed(conn, claim, "removing the old projections"):
            drop_work_tables(conn)
    except Interrupted:
        return  # a purge dropped them already


def replay_in_place(conn: Connection, apply: Applier = projector.apply) -> int:
    """Inside the caller's write transaction (an in-memory database, an imported log);
    return the number of events replayed, each given to ``apply``. Kept vectors are
    written again with revisions above every earlier one."""
    top = conn.execute("SELECT coalesce(max(vec_rev), 0) FROM facts").fetchone()[0]
    conn.execute("DROP TABLE IF EXISTS temp.saved_vectors")
    conn.execute(
        "CREATE TEMP TABLE saved_vectors AS SELECT id, embedding FROM facts "
        "WHERE embedding IS NOT NULL"
    )
    projector.clear_projections(conn)
    if vectors.has_index(conn):
        conn.execute("DELETE FROM facts_vec")
    count = 0
    for event in eventlog.read_all(conn):
        apply(conn, event)
        count += 1
    saved = conn.execute(
        "SELECT s.id, s.embedding FROM temp.saved_vectors s JOIN facts f ON f.id = s.id "
        "WHERE f.purged_at IS NULL"
    ).fetchall()
    vectors.write_vectors(conn, [(r[0], r[1]) for r in saved])
    conn.execute("UPDATE facts SET vec_rev = vec_rev + ? WHERE vec_rev IS NOT NULL", (top,))
    conn.execute("DROP TABLE temp.saved_vectors")
    return count
