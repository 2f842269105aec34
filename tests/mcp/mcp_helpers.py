"""What the MCP tool tests share: an in-process client of a memory's server, and a call
that returns whether it was an error and the JSON it answered."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.client import Client
from mcp_types import CallToolResult

from embornal import Memory
from embornal.interfaces.mcp.compat_mode import CompatMode
from embornal.interfaces.mcp.server import build_server


@asynccontextmanager
async def connect(
    memory: Memory,
    profile: str = "full",
    refusals: str = "error",
    compat: CompatMode | None = None,
) -> AsyncIterator[Client]:
    server = build_server(memory, profile=profile, refusals=refusals, compat=compat)
    async with Client(server, mode="legacy") as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result: CallToolResult = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)
