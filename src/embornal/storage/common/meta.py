"""The ``meta`` table, written once for both backends: a memory's settings that are not
events (the vectors' width and model, work a purge or a migration left pending).

Plain SQL with ``?`` placeholders over a connection's ``execute``: SQLite's, or
PostgreSQL's through its dialect (``postgres.db.Dialect``), as decision 0149 wrote the
projections. The width comes from config and is written the first time; a different
width later stops the memory (no wrong answers).
"""

from __future__ import annotations

from embornal.errors import VectorWidthMismatch
from embornal.hints import Any

__all__ = ["MODEL_KEY", "WIDTH_KEY", "check_width", "get_meta", "set_meta"]

WIDTH_KEY = "vector_width"
MODEL_KEY = "embedding_model"


def get_meta(conn: Any, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: Any, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def check_width(conn: Any, width: int) -> None:
    """Write the width into meta the first time; stop on a mismatch later."""
    stored = get_meta(conn, WIDTH_KEY)
    if stored is None:
        set_meta(conn, WIDTH_KEY, str(width))
        return
    if int(stored) != width:
        raise VectorWidthMismatch(
            f"this memory holds {stored}-dimensional vectors, but the configuration asks for "
            f"{width}",
            hint=(
                f"Set embedding.dims: {stored} in config.yaml (or choose a {stored}-d model), "
                "or re-embed every fact for the new model with "
                "`embornal memory reindex --all` after changing dims."
            ),
        )
