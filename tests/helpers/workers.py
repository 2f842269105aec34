"""Child processes for the reliability tests: run with ``sys.executable workers.py MODE ...``.

Each mode prints one line per committed fact, ``<id>\\t<content>``, flushed *after* the
call that committed it returned, so the parent knows exactly what the child saw committed.

Modes:

``crash DB TAG``        store facts forever (``store`` and ``store_many`` in turn) until killed.
``write DB TAG COUNT``  print ``ready``, wait for a line on stdin, store COUNT facts,
                        print ``done``.
``read DB STOPFILE``    print ``ready``, wait for a line on stdin, recall until STOPFILE exists,
                        then print ``recalls N hits M``.
``open DB``             print ``ready``, wait for a line on stdin, open (and so migrate) DB,
                        print the number of facts under /memory.
``purge-crash DB ID``   purge fact ID and die by SIGKILL the moment the purge's transaction
                        has committed (before any clean-up that follows it).
``rebuild DB AT``       rebuild DB, pausing once at AT (``replay``: halfway through the
                        replay; ``copy``: at the second staging transaction; ``clean``: at
                        the first removal of the old tables): print ``paused``, wait for a
                        line on stdin, go on; print ``done N`` or ``error CODE``.
"""

from __future__ import annotations

import os
import sys

from embornal import Memory, NewFact

__all__ = ["main"]


def _emit(fact_id: str, content: str) -> None:
    sys.stdout.write(f"{fact_id}\t{content}\n")
    sys.stdout.flush()


def _wait_for_go() -> None:
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    sys.stdin.readline()


def _crash(db: str, tag: str) -> None:
    with Memory.open(db) as mem:
        n = 0
        while True:
            if n % 2 == 0:
                content = f"crashfact {tag} number{n} single"
                fact = mem.store(f"/crash/{tag}", content, tags={"run": tag})
                _emit(fact.id, content)
            else:
                size = 1 + n % 7
                items = [
                    NewFact(f"/crash/{tag}/batch", f"crashfact {tag} number{n} part{k} batched")
                    for k in range(size)
                ]
                for fact, item in zip(mem.store_many(items), items, strict=True):
                    _emit(fact.id, item.content)
            n += 1


def _write(db: str, tag: str, count: int) -> None:
    with Memory.open(db) as mem:
        _wait_for_go()
        done = 0
        while done < count:
            if done % 3 == 2:
                items = [
                    NewFact(f"/writers/{tag}", f"writerfact {tag} item{done + k} batched")
                    for k in range(min(4, count - done))
                ]
                for fact, item in zip(mem.store_many(items), items, strict=True):
                    _emit(fact.id, item.content)
                done += len(items)
            else:
                content = f"writerfact {tag} item{done} single"
                fact = mem.store(f"/writers/{tag}", content)
                _emit(fact.id, content)
                done += 1
    sys.stdout.write("done\n")
    sys.stdout.flush()


def _read(db: str, stopfile: str) -> None:
    recalls = 0
    hits = 0
    with Memory.open(db) as mem:
        _wait_for_go()
        while True:
            stop = os.path.exists(stopfile)
            found = mem.recall("writerfact item single", limit=20, reinforce=recalls % 2 == 0)
            for hit in found:
                if not hit.fact.content:
                    raise AssertionError(f"empty content for {hit.fact.id}")
            hits += len(found)
            mem.recall(None, limit=5, reinforce=False)
            recalls += 1
            if stop:
                break
    sys.stdout.write(f"recalls {recalls} hits {hits}\n")
    sys.stdout.flush()


def _open(db: str) -> None:
    _wait_for_go()
    with Memory.open(db) as mem:
        count = len(mem.cat("/memory"))
    sys.stdout.write(f"guide {count}\n")
    sys.stdout.flush()


def _purge_crash(db: str, fact_id: str) -> None:
    import signal

    from embornal.storage.sqlite.store import SqliteStore

    def die(self: SqliteStore) -> bool:
        sys.stdout.write("committed\n")
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)
        return False

    SqliteStore.compact_after_purge = die  # type: ignore[method-assign]
    with Memory.open(db) as mem:
        mem.purge(fact_id, reason="erase, then crash")


def _rebuild(db: str, at: str) -> None:
    from contextlib import contextmanager

    from embornal.errors import EmbornalError
    from embornal.storage.sqlite import projector, rebuild

    def pause() -> None:
        sys.stdout.write("paused\n")
        sys.stdout.flush()
        sys.stdin.readline()

    with Memory.open(db) as mem:
        total = mem._store.conn.execute("SELECT count(*) FROM events").fetchone()[0]
        calls = {"apply": 0, "claimed": 0}
        if at == "replay":
            apply = projector.apply

            def paused_apply(conn: object, event: object) -> None:
                calls["apply"] += 1
                if calls["apply"] == total // 2:
                    pause()
                apply(conn, event)  # type: ignore[arg-type]

            projector.apply = paused_apply  # type: ignore[assignment]
        else:
            claimed = rebuild._claimed
            step = "staging a rebuild" if at == "copy" else "removing the old projections"

            @contextmanager
            def paused_claimed(conn: object, claim: str, doing: str):  # type: ignore[no-untyped-def]
                if doing == step:
                    calls["claimed"] += 1
                    if calls["claimed"] == (2 if at == "copy" else 1):
                        pause()
                with claimed(conn, claim, doing) as c:
                    yield c

            rebuild._claimed = paused_claimed  # type: ignore[assignment]
        try:
            count = mem.rebuild()
        except EmbornalError as e:
            sys.stdout.write(f"error {e.code}\n")
        else:
            sys.stdout.write(f"done {count}\n")
        sys.stdout.flush()


def main(argv: list[str]) -> None:
    mode, db, *rest = argv
    if mode == "crash":
        _crash(db, rest[0])
    elif mode == "write":
        _write(db, rest[0], int(rest[1]))
    elif mode == "read":
        _read(db, rest[0])
    elif mode == "open":
        _open(db)
    elif mode == "purge-crash":
        _purge_crash(db, rest[0])
    elif mode == "rebuild":
        _rebuild(db, rest[0])
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
