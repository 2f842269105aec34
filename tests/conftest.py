"""Shared fixtures: every test runs with its own temporary embornal home."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from embornal import FixedClock, Memory
from pg_server import mark_postgresql_tests, pg_server, pg_url

__all__ = ["pg_server", "pg_url"]  # the session's PostgreSQL server: fixtures of every directory


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test using the PostgreSQL server is marked ``postgresql`` even if it forgot to be."""
    mark_postgresql_tests(items)


# CI machines are small and shared: no per-example deadline, no "too slow" failures.
settings.register_profile("embornal", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("embornal")


@pytest.fixture(autouse=True)
def embornal_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point EMBORNAL_HOME (and HOME) at a temp dir so no test touches real files."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("EMBORNAL_HOME", str(tmp_path / "embornal"))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "EMBORNAL_EMBEDDING"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "embornal"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 1, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def memory(db_path: Path, clock: FixedClock) -> Iterator[Memory]:
    mem = Memory.open(db_path, clock=clock)
    yield mem
    mem.close()


@pytest.fixture
def smem(db_path: Path, clock: FixedClock) -> Iterator[Memory]:
    """A memory with the deterministic fake embedder (384-d), every fact embedded."""
    from embornal.adapters.embeddings.base import FakeEmbedder

    mem = Memory.open(db_path, clock=clock, embedder=FakeEmbedder(384))
    mem.reindex()  # the guide facts were written before the model
    yield mem
    mem.close()
