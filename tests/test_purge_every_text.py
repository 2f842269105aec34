"""A purge leaves none of the text written about the fact (issue 26, decision 0134).

A remembered, promoted, corroborated, canonized, framed fact with a history context, which
contradicts another, is set against it in a conflict and named by a rejected proposal and
a link, carries a distinct marker word in every field and reason that can hold user text.
After its purge none of the markers is in any byte of the database's files: the SQLite
file (and its WAL), or PostgreSQL's data files of the database (dead row versions too);
the conflict naming it is closed; ``verify`` holds before and after a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from pg_server import fresh_url

#: One marker a field: each names where it was written.
MARKERS = {
    "content": "qzcontentmark",
    "source": "qzsourcemark",
    "session": "qzsessionmark",
    "frame": "qzframemark",
    "remember reason": "qzrememberwhy",
    "promote reason": "qzpromotewhy",
    "corroboration source": "qzcorrosource",
    "common origin": "qzcommonorigin",
    "corroborate reason": "qzcorrowhy",
    "canon scope": "qzcanonscope",
    "canon reason": "qzcanonwhy",
    "second frame": "qzreframemark",
    "frame reason": "qzframewhy",
    "history-context session": "qzctxsession",
    "history-context reason": "qzctxwhy",
    "contradiction reason": "qzcontrawhy",
    "conflict reason": "qzconflictwhy",
    "proposal item": "qzitemmark",
    "proposal title": "qztitlemark",
    "proposal source": "qzpropsource",
    "proposal rejection": "qzrejectwhy",
    "link reason": "qzlinkwhy",
}


def _write_everything(memory: Memory) -> tuple[str, str, str]:
    """The fact with a marker in every text field; the other fact and the conflict."""
    m = MARKERS
    other = memory.store("/notes/other", "The office is on floor 3.").id
    fact = memory.remember(
        f"The vault code is {m['content']}.",
        path="/notes/vault",
        source=m["source"],
        session=m["session"],
        frame=m["frame"],
        reason=m["remember reason"],
    ).fact.id
    memory.promote(fact, reason=m["promote reason"])
    memory.corroborate(
        fact,
        m["corroboration source"],
        common_origin=m["common origin"],
        reason=m["corroborate reason"],
    )
    proposal = memory.propose(
        [{"type": "archive", "fact_id": fact, "reason": m["proposal item"]}],
        title=m["proposal title"],
        source=m["proposal source"],
    )
    memory.reject(proposal.id, reason=m["proposal rejection"])
    ledger = memory.chronicle
    ledger.canonize(fact, m["canon scope"], reason=m["canon reason"])
    ledger.set_frame(fact, m["second frame"], reason=m["frame reason"])
    ledger.set_history_context(
        fact, session=m["history-context session"], reason=m["history-context reason"]
    )
    memory.contradict(other, by=fact, reason=m["contradiction reason"])
    conflict = ledger.mark_conflict(fact, other, reason=m["conflict reason"]).id
    memory.link(other, "relates_to", fact, reason=m["link reason"])
    return fact, other, conflict


def _sqlite_files(db: Path) -> dict[str, bytes]:
    out = {}
    for suffix in ("", "-wal", "-journal"):
        f = Path(str(db) + suffix)
        if f.exists():
            out[f.name] = f.read_bytes()
    return out


def _postgresql_files(url: str) -> dict[str, bytes]:
    """The data files of the database (its tables, their TOAST and indexes), checkpointed."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
        row = conn.execute(
            "SELECT current_setting('data_directory'), oid FROM pg_database "
            "WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    base = Path(row[0]) / "base" / str(row[1])
    if not base.is_dir():
        pytest.skip("the server's data files are not on this machine")
    return {f.name: f.read_bytes() for f in sorted(base.iterdir()) if f.is_file()}


def _markers_held(files: dict[str, bytes]) -> dict[str, list[str]]:
    """Each marker found, with the files holding it (UTF-8, UTF-16, upper case)."""
    out = {}
    for field, word in MARKERS.items():
        needles = {word.encode(), word.encode("utf-16-le"), word.upper().encode()}
        held = [name for name, data in files.items() if any(n in data for n in needles)]
        if held:
            out[field] = held
    return out


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def opened(
    request: pytest.FixtureRequest, db_path: Path, clock: FixedClock
) -> Iterator[tuple[Memory, str]]:
    """A memory of each backend, and where its files are."""
    target = str(db_path) if request.param == "sqlite" else fresh_url(request)
    mem = Memory.open(target, clock=clock)
    yield mem, target
    mem.close()


def _files(target: str) -> dict[str, bytes]:
    if target.startswith("postgresql:") or target.startswith("postgres:"):
        return _postgresql_files(target)
    return _sqlite_files(Path(target))


def test_a_purge_leaves_no_marker_of_any_text_field(
    opened: tuple[Memory, str], clock: FixedClock
) -> None:
    memory, target = opened
    fact, other, conflict = _write_everything(memory)
    if not target.startswith("postgres"):
        memory._store.compact_after_purge()  # the WAL into the file: the markers are there
    assert set(_markers_held(_files(target))) == set(MARKERS)
    clock.advance(days=1)

    memory.purge(fact, reason="erase the vault note")

    assert _markers_held(_files(target)) == {}
    assert memory.show(fact).fact.state == "purged"
    assert memory.show(other).fact.state == "active"
    assert memory.conflict(conflict).status != "open"
    assert conflict not in {c.id for c in memory.conflicts(status="open")}
    assert memory.verify() == []
    memory.rebuild()
    assert memory.verify() == []
    memory._store.compact_after_purge()
    assert _markers_held(_files(target)) == {}
