"""Size of the MCP ``tools/list`` answer per profile: what every session costs a model.

    python benchmarks/mcp_tools_size.py [--out benchmarks/results/mcp_tools.json] [--strict]

Each profile's tool list is asked for through the SDK's client over an in-process server,
then measured as the compact JSON a client receives: bytes, characters and an estimate of
tokens (characters / 4, the usual rule of thumb for English and JSON; no tokenizer of any
one model is assumed). The full profile is measured twice: as served, and with every
tool's output schema (``EMBORNAL_MCP_OUTPUT_SCHEMAS=1``, decision 0138). Each list's
schemas are checked for portability: a ``type`` given as a list (``["string", "null"]``)
is a warning, which some clients refuse; ``--strict`` exits 1 on any. Prints a table,
saves JSON and rewrites its section of RESULTS.md.
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
BEFORE = (
    "Before decision 0138 (commit `a85679a`, every full tool with its output schema, "
    "pydantic's titles and null defaults): `core` 15 tools, 13,820 bytes (≈ 3,455 tokens); "
    "`full` 77 tools, 213,836 bytes (≈ 53,450 tokens, 57% of it output schemas, `recall` "
    'alone 12.6 KB) with 63 portability warnings (the claim tools\' `type: ["string", '
    '"null"]`).'
)


#: What is measured: (row name, profile, every tool's output schema).
LISTS = (("core", "core", False), ("full", "full", False), ("full+schemas", "full", True))


async def _tools(db: Path, profile: str, output_schemas: bool = False) -> list[dict[str, Any]]:
    from mcp.client import Client

    from embornal import Memory
    from embornal.interfaces.mcp.server import build_server

    with Memory.open(db) as memory:
        server = build_server(memory, profile=profile, output_schemas=output_schemas)
        async with Client(server, mode="legacy") as client:
            listed = await client.list_tools()
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]


def measure(profile: str, output_schemas: bool = False, name: str | None = None) -> dict[str, Any]:
    from embornal.interfaces.mcp.schemas import non_portable

    with tempfile.TemporaryDirectory() as tmp:
        tools = asyncio.run(_tools(Path(tmp) / "memory.db", profile, output_schemas))
    text = json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False)
    warnings = [
        f"{t['name']}.{key}{at}"
        for t in tools
        for key in ("inputSchema", "outputSchema")
        for at in non_portable(t.get(key))
    ]
    return {
        "profile": name or profile,
        "tools": len(tools),
        "names": [t["name"] for t in tools],
        "bytes": len(text.encode("utf-8")),
        "chars": len(text),
        "tokens_estimate": round(len(text) / CHARS_PER_TOKEN),
        "output_schemas": sum("outputSchema" in t for t in tools),
        "portability_warnings": warnings,
    }


def report(rows: list[dict[str, Any]], machine: dict[str, Any]) -> str:
    lines = [
        "The `tools/list` answer of `embornal mcp` per profile (`EMBORNAL_MCP_TOOLS`), as "
        "compact JSON; tokens estimated as characters / 4. `full+schemas`: the full "
        "profile with every tool's output schema (`EMBORNAL_MCP_OUTPUT_SCHEMAS=1`). "
        "Portability warnings: a schema `type` given as a list. "
        f"Measured {machine['date']}, commit `{machine.get('git_commit') or '?'}`. "
        "Reproduce: `python benchmarks/mcp_tools_size.py`. "
        "Raw: `benchmarks/results/mcp_tools.json`.",
        "",
        "| profile | tools | output schemas | bytes | ≈ tokens | portability warnings |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['profile']}` | {r['tools']} | {r['output_schemas']} | {r['bytes']:,} "
            f"| {r['tokens_estimate']:,} | {len(r['portability_warnings'])} |"
        )
    return "\n".join([*lines, "", BEFORE]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = results_parser(__doc__, "mcp_tools.json")
    parser.add_argument("--strict", action="store_true", help="exit 1 on any portability warning")
    args = parser.parse_args(argv)
    machine = machine_info()
    rows = [measure(profile, schemas, name) for name, profile, schemas in LISTS]
    save_results(args, {"machine": machine, "profiles": rows}, HEADING, report(rows, machine))
    warnings = [w for r in rows for w in r["portability_warnings"]]
    for w in warnings:
        print(f"portability: a type given as a list at {w}", file=sys.stderr)
    return 1 if args.strict and warnings else 0


if __name__ == "__main__":
    raise SystemExit(main())
