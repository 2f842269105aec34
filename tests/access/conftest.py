"""Fixtures of the access tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def mem(request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    """A memory on SQLite, and on PostgreSQL (a fresh database) under ``-m postgresql``."""
    if request.param == "sqlite":
        with Memory.open(tmp_path / "m.db", clock=clock) as m:
            yield m
        return
    pg = request.getfixturevalue("pg_server")
    name = pg.fresh_database()
    try:
        with Memory.open(pg.url(name), clock=clock) as m:
            yield m
    finally:
        pg.drop(name)
