"""HTTP fixtures: an app over the test memory and tokens for two subjects."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.app import create_app


@pytest.fixture
def tokens(memory: Memory) -> dict[str, str]:
    """A token for alice and one for bob, each with the default token rules."""
    return {who: memory.token_add(who).token for who in ("alice", "bob")}


@pytest.fixture
def client(memory: Memory) -> Iterator[TestClient]:
    """The REST API in process (no MCP, no wiki)."""
    with TestClient(create_app(memory, mcp=False, wiki=False)) as c:
        yield c


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
