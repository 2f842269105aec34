"""``python -m embornal.interfaces.mcp [--db PATH] [--subject NAME] [--profile core|full]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from embornal.errors import EmbornalError
from embornal.interfaces.mcp.profiles import PROFILES


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m embornal.interfaces.mcp",
        description="Serve an embornal memory to an MCP client over stdio.",
    )
    parser.add_argument("--db", help="the memory file (default: memory.db in the data dir)")
    parser.add_argument("--subject", default="default", help="who the agent acts as")
    parser.add_argument(
        "--profile",
        default=None,
        choices=PROFILES,
        help="which tools to offer (default: EMBORNAL_MCP_TOOLS, else core)",
    )
    args = parser.parse_args(argv)
    try:
        import os

        from embornal.adapters.config import MCP_TOOLS_ENV
        from embornal.interfaces.mcp.server import run_stdio

        profile = args.profile or os.environ.get(MCP_TOOLS_ENV, "").strip().lower() or "core"
        run_stdio(db_path=args.db, subject=args.subject, profile=profile)
    except EmbornalError as e:
        hint = f" ({e.hint})" if e.hint else ""
        print(f"embornal mcp: {e.message}{hint}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
