"""The storage contract suite: every backend passes the same tests.

``store`` is a fresh :class:`~embornal.storage.contract.store.Store` on a temporary database
of each backend in :data:`BACKENDS`: a file for SQLite, a copy of a migrated template
database on the session's embedded server for PostgreSQL (:mod:`pg_server`). Nothing
else in ``tests/storage`` names a backend. ``events`` builds the events the tests append.

The contract tests of parts not ported to PostgreSQL yet are skipped, each with its
reason, from the one list :data:`NOT_ON_POSTGRESQL`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from contract_helpers import Events

from embornal import FixedClock
from embornal.storage.contract.store import Store
from embornal.storage.factory import open_store
from pg_server import fresh_url

#: The backends the contract runs against.
BACKENDS = ["sqlite", "postgresql"]

#: The contract tests PostgreSQL skips, by test file and name (a file alone: all of it),
#: each with the part not ported yet. The one list: nothing else skips a backend.
NOT_ON_POSTGRESQL: dict[str, str] = {}


def _not_ported(request: pytest.FixtureRequest) -> str | None:
    node = request.node
    file = Path(str(node.path)).name
    name = node.originalname if hasattr(node, "originalname") else node.name
    return NOT_ON_POSTGRESQL.get(f"{file}::{name}") or NOT_ON_POSTGRESQL.get(file)


def _target(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a throw-away database of ``backend`` lives."""
    if backend == "sqlite":
        return tmp_path / "contract.db"
    part = _not_ported(request)
    if part is not None:
        pytest.skip(f"postgresql: {part} not ported yet")
    return fresh_url(request)


@pytest.fixture(
    params=[
        pytest.param(b, marks=pytest.mark.postgresql) if b == "postgresql" else b for b in BACKENDS
    ]
)
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock
) -> Iterator[Store]:
    opened = open_store(_target(backend, request, tmp_path), clock)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def events(clock: FixedClock) -> Events:
    return Events(clock)


@pytest.fixture
def twin_targets(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> tuple[str | Path, str | Path]:
    """Two throw-away databases of ``backend`` (for writes compared side by side)."""
    found = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        found.append(_target(backend, request, tmp_path / name))
    if found[0] == found[1]:  # EMBORNAL_TEST_POSTGRESQL_URL: one database only
        pytest.skip("two databases are needed")
    return found[0], found[1]
