"""A real MCP client talking to ``python -m embornal.interfaces.mcp`` over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

import embornal
from embornal import Memory

pytestmark = pytest.mark.anyio

MODULE = "embornal.interfaces.mcp"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_store_and_recall_over_stdio(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "stdio.db"
    with Memory.open(db) as admin:  # the agent may read and write /projects only
        for action in ("read", "write"):
            admin.policy_add("p", ["agent-1", "path:/projects/*", action, "allow"])
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", MODULE, "--db", str(db), "--subject", "agent-1"],
        env={"EMBORNAL_HOME": str(tmp_path / "home")},
    )
    log = tmp_path / "server.log"
    with log.open("w") as errlog, anyio.fail_after(60):
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert names[:4] == ["store", "recall", "forget", "restore"]  # the core profile
            assert "remember" in names and "ls" not in names

            stored = await client.call_tool(
                "store", {"path": "/projects/embornal", "content": "Stdio works end to end."}
            )
            assert not stored.is_error
            fid = stored.structured_content["id"] if stored.structured_content else None

            found = await client.call_tool("recall", {"q": "stdio"})
            assert not found.is_error
            assert found.content[0].type == "text"
            hits = json.loads(found.content[0].text)["hits"]
            assert [h["id"] for h in hits] == [fid]

            bad = await client.call_tool("store", {"path": "/", "content": "At the root."})
            assert bad.is_error
            assert bad.content[0].type == "text"
            assert json.loads(bad.content[0].text)["error"] == "invalid_input"

            denied = await client.call_tool("store", {"path": "/people/x", "content": "No."})
            assert denied.is_error
            assert denied.content[0].type == "text"
            assert json.loads(denied.content[0].text)["error"] == "access_denied"

    assert "Traceback" not in log.read_text()
    # The server closed the file on EOF; the fact is in it, written by the agent.
    assert fid is not None
    with Memory.open(db) as memory:
        detail = memory.show(fid)
        assert detail.fact.content == "Stdio works end to end."
        assert detail.fact.owner == "agent-1"
        assert detail.fact.recall_count == 1  # the MCP recall reinforced it
        assert {e.actor_kind for e in detail.events} == {"assistant"}


async def test_embornal_mcp_refusals_result_over_stdio(tmp_path: Path) -> None:
    """`embornal mcp --refusals result`: a refusal is a plain result named after
    memory-as-history's exception (decision 0143)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "embornal.interfaces.cli.main", "mcp", "--refusals", "result"],
        env={
            "EMBORNAL_HOME": str(tmp_path / "home"),
            "EMBORNAL_MCP_TOOLS": "full",
            # this source tree, as the test's own imports (the client passes no other)
            "PYTHONPATH": str(Path(embornal.__file__).parents[1]),
        },
    )
    with anyio.fail_after(60):
        async with Client(stdio_client(params), mode="legacy") as client:
            got = await client.call_tool("remember", {"content": "x", "tier": "testimony"})
            assert not got.is_error and got.content[0].type == "text"
            said = json.loads(got.content[0].text)
            assert said["error"] == "ValueError" and said["code"] == "invalid_input"
            assert "corroborate(" in said["hint"]


def test_bad_arguments_fail_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "bad-subject.db"
    bad_subject = subprocess.run(
        [sys.executable, "-m", MODULE, "--db", str(db), "--subject", "two words"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert bad_subject.returncode == 2
    assert bad_subject.stderr.startswith("embornal mcp: subject 'two words'")
    assert "Traceback" not in bad_subject.stderr
    assert bad_subject.stdout == ""

    other = tmp_path / "other.db"
    bad_profile = subprocess.run(
        [sys.executable, "-m", MODULE, "--db", str(other), "--profile", "everything"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert bad_profile.returncode == 2
    assert "invalid choice" in bad_profile.stderr
    assert not other.exists()


def _pipelined(n_stores: int) -> list[dict[str, object]]:
    init: dict[str, object] = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "pipe", "version": "1"},
        },
    }
    messages = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    for i in range(1, n_stores + 1):
        args = {"path": "/projects/pipe", "content": f"Pipelined fact number {i}."}
        messages.append(
            {
                "jsonrpc": "2.0",
                "id": i,
                "method": "tools/call",
                "params": {"name": "store", "arguments": args},
            }
        )
    messages.append(
        {
            "jsonrpc": "2.0",
            "id": "last",
            "method": "tools/call",
            "params": {"name": "recall", "arguments": {"query": "pipelined", "limit": 50}},
        }
    )
    return messages


@pytest.mark.parametrize("n_stores", [3, 12])
def test_every_pipelined_request_is_answered_when_stdin_closes(
    tmp_path: Path, n_stores: int
) -> None:
    """``printf … | embornal mcp``: stdin ends while the calls still run; each gets its
    answer before the server exits, and the server exits by itself."""
    db = tmp_path / "pipe.db"
    messages = _pipelined(n_stores)
    text = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run(
        [sys.executable, "-m", MODULE, "--db", str(db)],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "EMBORNAL_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    expected = [m["id"] for m in messages if "id" in m]
    assert sorted(map(str, (r["id"] for r in replies))) == sorted(map(str, expected))
    assert all("result" in r for r in replies), replies
    stores = [r for r in replies if isinstance(r["id"], int) and r["id"] > 0]
    assert not any(r["result"].get("isError") for r in stores)
    with Memory.open(db) as memory:
        assert len(memory.cat("/projects/pipe")) == n_stores
