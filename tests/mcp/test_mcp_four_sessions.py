"""memory-as-history's acceptance scenario "four sessions": capture, promote, pin and narrate
across four separate MCP client/server sessions over stdio on one database; the anchor
and the narrative are there in each (deterministic, no model)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

MODULE = "embornal.interfaces.mcp"


async def _session(db: Path, home: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """One client/server session: a new server process on ``db``, the calls in turn."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", MODULE, "--db", str(db)],
        env={"EMBORNAL_HOME": str(home)},
    )
    out: list[Any] = []
    with anyio.fail_after(60):
        async with Client(stdio_client(params), mode="legacy") as client:
            for tool, args in calls:
                result = await client.call_tool(tool, args)
                assert result.content[0].type == "text"
                data = json.loads(result.content[0].text)
                assert not result.is_error, (tool, data)
                out.append(data)
    return out


async def test_the_anchor_and_the_narrative_are_there_in_each_of_four_sessions(
    tmp_path: Path,
) -> None:
    db, home = tmp_path / "m.db", tmp_path / "home"
    (captured,) = await _session(
        db,
        home,
        [
            ("remember", {"content": "The user is Ada; I am her assistant.", "source": "ada"}),
        ],
    )
    mid = captured["memory_id"]
    await _session(
        db,
        home,
        [
            ("promote", {"memory_id": mid, "reason": "stated by the user"}),
            ("pin", {"memory_id": mid, "reason": "who the user is"}),
        ],
    )
    await _session(
        db,
        home,
        [
            (
                "narrate",
                {
                    "content": "Ada and her assistant work on the data team.",
                    "reason": "first account",
                    "memory_ids": [mid],
                },
            ),
        ],
    )
    for _ in range(2):  # the third session wrote it; the fourth and a fifth find it
        recalled, current = await _session(db, home, [("recall", {}), ("current_narrative", {})])
        assert mid in [h["id"] for h in recalled["hits"]]
        assert "data team" in json.dumps(current)
