"""Fill in the history tables from the log (after migration 0016, when the store opens).

A replay needs every projection table of this build, some of which later migrations make,
so migration 0016 only leaves :data:`~embornal.storage.common.history.PENDING_KEY` in ``meta``
and the store fills the history in once every migration ran.
"""

from __future__ import annotations

from embornal.storage.common.history import PENDING_KEY, TABLES
from embornal.storage.sqlite.connect import Connection, atomic

__all__ = ["fill_in"]


def fill_in(conn: Connection) -> bool:
    """Fill in the history from the whole log when migration 0016 left it pending: the log
    is replayed into TEMP copies of the projections (as a rebuild does) and the history
    tables are copied from them, in one write transaction. True when it ran."""

    pending = "SELECT 1 FROM meta WHERE key = ?"
    if conn.execute(pending, (PENDING_KEY,)).fetchone() is None:
        return False  # every open but the first after 0016: nothing more is imported
    from embornal.storage.sqlite import eventlog, projector, rebuild

    with atomic(conn, "filling in the history of the memory"):
        if conn.execute(pending, (PENDING_KEY,)).fetchone() is None:
            return False  # another process did it meanwhile
        rebuild.make_scratch(conn)
        try:
            for event in eventlog.read_all(conn):
                projector.apply(conn, event)
            for table in TABLES:
                conn.execute(f"DELETE FROM main.{table}")
                conn.execute(f"INSERT INTO main.{table} SELECT * FROM temp.{table}")
        finally:
            rebuild.drop_scratch(conn)
        conn.execute("DELETE FROM meta WHERE key = ?", (PENDING_KEY,))
    return True
