"""MCP tests run on asyncio through anyio's pytest plugin (installed with the SDK)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
