"""A run of fact stores projected together on PostgreSQL (a bulk store, decision 0111).

:func:`embornal.storage.postgres.projector.apply` projects one event at a time: a store
costs a dozen statements (the path, the row, its terms, their statistics, the counters,
the tags, the history), each a round trip. A run of consecutive ``FactStored`` events that
supersede nothing (what ``store_many`` appends) writes the same rows in a few statements
for the whole run, as SQLite's (:mod:`embornal.storage.common.store_run`, decision 0109) does:
one read of every path (the missing ones created in order of first appearance), one
pipelined ``executemany`` of the ``facts`` rows (their terms in the row; the identity
gives each the ``seq`` one-by-one inserts would give it, in log order), one ``COPY`` of the
tags and one of the terms, one upsert of the terms' statistics, one update of the
counters, the allow lists and the evidence in one ``executemany`` each, and the first
history rows of every fact in two statements. The entity keys (entity and preference
facts only) are written per event, after the rows, as ``apply`` writes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.domain import paths as P
from embornal.domain.recall.text import index_terms
from embornal.storage.common import conflicts as conflict_projection
from embornal.storage.common import projector as projector_sql
from embornal.storage.postgres import history as pg_history
from embornal.storage.postgres import keyword, projector
from embornal.storage.postgres.db import Conn, Dialect, execute, pg_sql

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["project"]

_FACT_INSERT = pg_sql(
    f"INSERT INTO facts ({projector.FACT_COLUMNS}, terms, term_count) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, array_to_tsvector(?::text[]), ?) "
    "RETURNING seq"
)


def project(conn: Conn, events: Sequence[Event]) -> None:
    """Project ``events`` (each a plain store, in log order) as ``apply`` would, one
    after the other."""
    bodies: list[Any] = [e.body for e in events]
    path_ids = _path_ids(conn, [b.path for b in bodies])
    counts: list[Counter[str]] = []
    rows: list[tuple[Any, ...]] = []
    length = 0
    for e, b in zip(events, bodies, strict=True):
        terms = index_terms(b.content or "")
        counted = Counter(terms)
        counts.append(counted)
        length += len(terms)
        rows.append((*projector.fact_values(e, b, path_ids[b.path]), sorted(counted), len(terms)))
    with conn.cursor() as cur:
        cur.executemany(_FACT_INSERT, rows, returning=True)
        seqs = [int(r[0]) for _ in cur.results() for r in cur.fetchall()]
        with cur.copy("COPY fact_tags (fact_id, key, value) FROM STDIN") as copy:
            for b in bodies:
                for t in b.tags:
                    copy.write_row((b.fact_id, t.key, t.value))
        lengths = keyword.writes_lengths()  # not before pg_0009 (the guide's facts)
        columns = "seq, term, tf, dl" if lengths else "seq, term, tf"
        with cur.copy(f"COPY fact_terms ({columns}) FROM STDIN") as copy:
            for seq, counted in zip(seqs, counts, strict=True):
                dl = counted.total()
                for term, tf in counted.items():
                    copy.write_row((seq, term, tf, dl) if lengths else (seq, term, tf))
    _term_stats(conn, counts, length)
    projector.many(
        conn,
        projector_sql.ALLOW_INSERT,
        [r for b in bodies for r in projector_sql.allow_rows(b.fact_id, b.visibility)],
    )
    projector.many(
        conn,
        projector_sql.EVIDENCE_INSERT,
        [r for e, b in zip(events, bodies, strict=True) for r in projector_sql.evidence_rows(e, b)],
    )
    for e, b in zip(events, bodies, strict=True):
        conflict_projection.after(Dialect(conn), e, b)  # entity keys (0059): entity kinds only
    pg_history.first_rows(conn, events)


def _term_stats(conn: Conn, counts: list[Counter[str]], length: int) -> None:
    """Each term's document frequency raised by the facts of the run holding it, and the
    keyword counters by the run's documents and terms."""
    df: Counter[str] = Counter()
    for counted in counts:
        df.update(counted.keys())
    terms = sorted(df)
    execute(
        conn,
        "INSERT INTO term_stats (term, df) SELECT * FROM unnest(?::text[], ?::bigint[]) "
        "ON CONFLICT (term) DO UPDATE SET df = term_stats.df + excluded.df",
        (terms, [df[t] for t in terms]),
    )
    execute(
        conn,
        "UPDATE counters SET value = value + CASE name WHEN 'fts_docs' THEN ? ELSE ? END "
        "WHERE name IN ('fts_docs', 'fts_length')",
        (len(counts), length),
    )


def _path_ids(conn: Conn, paths: list[str]) -> dict[str, int]:
    """The id of each path, the missing ones (with their ancestors) created in the order
    and with the ids one-by-one stores give them: each after its parent, in order of first
    appearance, its id the identity's next; in one insert of the paths and one of their
    closure rows (every ancestor, itself included, with the ancestor's depth)."""
    distinct = list(dict.fromkeys(paths))
    wanted = list(dict.fromkeys(a for path in distinct for a in _lineage(path)))
    found = {
        str(r[0]): int(r[1])
        for r in execute(
            conn, "SELECT path, id FROM paths WHERE path = ANY(?)", (wanted,)
        ).fetchall()
    }
    new = [path for path in wanted if path not in found]  # each after its ancestors
    if not new:
        return found
    ids = sorted(
        int(r[0])
        for r in execute(
            conn,
            "SELECT nextval(pg_get_serial_sequence('paths', 'id')) FROM generate_series(1, ?)",
            (len(new),),
        ).fetchall()
    )
    found.update(zip(new, ids, strict=True))
    parents = [found[P.parent_of(path) or "/"] for path in new]
    execute(
        conn,
        "INSERT INTO paths (id, parent_id, name, path, depth) "
        "SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::int[])",
        (ids, parents, [P.name_of(p) for p in new], new, [len(P.segments(p)) for p in new]),
    )
    closure = [(found[a], found[path], len(P.segments(a))) for path in new for a in _lineage(path)]
    execute(
        conn,
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) "
        "SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::int[])",
        tuple(list(c) for c in zip(*closure, strict=True)),
    )
    return found


def _lineage(path: str) -> list[str]:
    """``path`` and every ancestor of it, the root first."""
    out = [path]
    while (parent := P.parent_of(out[-1])) is not None:
        out.append(parent)
    return out[::-1]
