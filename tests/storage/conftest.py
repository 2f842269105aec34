"""The storage contract suite: every backend passes the same tests.

``store`` is a fresh :class:`~embornal.storage.contract.Store` on a temporary database
of each backend in :data:`BACKENDS`. A new backend (PostgreSQL) joins by adding its
name there and a way to make a throw-away database in :func:`_target`; nothing else in
``tests/storage`` names a backend. ``events`` builds the events the tests append.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from contract_helpers import Events

from embornal import FixedClock
from embornal.storage.contract import Store
from embornal.storage.factory import open_store

#: The backends the contract runs against. "postgresql" is one more entry, once it exists.
BACKENDS = ["sqlite"]


def _target(backend: str, tmp_path: Path) -> str | Path:
    """Where a throw-away database of ``backend`` lives."""
    if backend == "sqlite":
        return tmp_path / "contract.db"
    url = os.environ.get(f"EMBORNAL_TEST_{backend.upper()}_URL")
    if not url:
        pytest.skip(f"set EMBORNAL_TEST_{backend.upper()}_URL to run the contract on {backend}")
    return url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def store(backend: str, tmp_path: Path, clock: FixedClock) -> Iterator[Store]:
    opened = open_store(_target(backend, tmp_path), clock)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def events(clock: FixedClock) -> Events:
    return Events(clock)
