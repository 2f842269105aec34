"""Fixtures for the command-line tests: the console script with this test's temp home."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cli_helpers import Run, run_cli

from embornal import Memory


@pytest.fixture
def cli() -> Run:
    """``cli("memory", "ls")`` runs the console script with this test's temp home."""
    return run_cli


@pytest.fixture
def stored() -> Callable[..., str]:
    """Seed a fact through the service (fast) and return its id.

    ``stored("/x", "text", tags=["k=v"], at="2020-01-01T00:00:00Z")`` writes to the
    memory.db of this test's EMBORNAL_HOME, where the console script finds it.
    """

    def store(
        path: str, content: str, *, tags: list[str] | None = None, at: str | None = None
    ) -> str:
        with Memory.open() as memory:
            return memory.store(path, content, tags=tags, at=at).id

    return store
