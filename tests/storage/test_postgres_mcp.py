"""``embornal mcp`` over stdio on a PostgreSQL memory (``--db postgresql://…``): the URL
reaches the store as given (made a path, it lost a slash and named a SQLite file)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from embornal import Memory
from pg_server import pg_url

__all__ = ["pg_url"]  # a fixture of pg_server

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_agent_stores_and_recalls_over_stdio(pg_url: str, tmp_path: Path) -> None:
    os.chdir(tmp_path)  # a URL taken for a path would leave a file here
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "embornal.interfaces.mcp", "--db", pg_url],
        env={**os.environ, "EMBORNAL_HOME": str(tmp_path / "home")},
        cwd=str(tmp_path),
    )
    with (tmp_path / "server.log").open("w") as errlog, anyio.fail_after(60):
        async with Client(stdio_client(params, errlog=errlog)) as client:
            stored = await client.call_tool(
                "store", {"path": "/projects/pg", "content": "The agent writes to PostgreSQL."}
            )
            assert not stored.is_error and stored.structured_content is not None
            fid = stored.structured_content["id"]
            found = await client.call_tool("recall", {"q": "postgresql"})
            assert found.content[0].type == "text"
            assert [h["id"] for h in json.loads(found.content[0].text)["hits"]] == [fid]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("postgres")]
    with Memory.open(pg_url) as memory:
        assert memory.show(fid).fact.recall_count == 1
