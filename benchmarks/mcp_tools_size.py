"""Size of the MCP ``tools/list`` answer per profile: what every session costs a model.

    python benchmarks/mcp_tools_size.py [--out benchmarks/results/mcp_tools.json]

Each profile's tool list is asked for through the SDK's client over an in-process server,
then measured as the compact JSON a client receives: bytes, characters and an estimate of
tokens (characters / 4, the usual rule of thumb for English and JSON; no tokenizer of any
one model is assumed). Prints a table, saves JSON and rewrites its section of RESULTS.md.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine_info, results_parser, save_results

HEADING = "MCP tool lists per profile"
CHARS_PER_TOKEN = 4


async def _tools(db: Path, profile: str) -> list[dict[str, Any]]:
    from mcp.client import Client

    from embornal import Memory
    from embornal.interfaces.mcp.server import build_server

    with Memory.open(db) as memory:
        async with Client(build_server(memory, profile=profile), mode="legacy") as client:
            listed = await client.list_tools()
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]


def measure(profile: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        tools = asyncio.run(_tools(Path(tmp) / "memory.db", profile))
    text = json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False)
    return {
        "profile": profile,
        "tools": len(tools),
        "names": [t["name"] for t in tools],
        "bytes": len(text.encode("utf-8")),
        "chars": len(text),
        "tokens_estimate": round(len(text) / CHARS_PER_TOKEN),
    }


def report(rows: list[dict[str, Any]], machine: dict[str, Any]) -> str:
    lines = [
        "The `tools/list` answer of `embornal mcp` per profile (`EMBORNAL_MCP_TOOLS`), as "
        "compact JSON; tokens estimated as characters / 4. "
        f"Measured {machine['date']}, commit `{machine.get('git_commit') or '?'}`. "
        "Reproduce: `python benchmarks/mcp_tools_size.py`. "
        "Raw: `benchmarks/results/mcp_tools.json`.",
        "",
        "| profile | tools | bytes | ≈ tokens |",
        "|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['profile']}` | {r['tools']} | {r['bytes']:,} | {r['tokens_estimate']:,} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = results_parser(__doc__, "mcp_tools.json").parse_args(argv)
    machine = machine_info()
    rows = [measure(p) for p in ("core", "full")]
    save_results(args, {"machine": machine, "profiles": rows}, HEADING, report(rows, machine))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
