"""A pytest plugin for ``benchmarks/mah_conformance.py``: memory-as-history's own MCP tests
start ``embornal mcp`` instead of their server.

Loaded with ``-p benchmarks.mah_swap`` in the pytest run of the peer's test files; it does
nothing unless ``MAH_SWAP_SRC`` names embornal's source folder. (With ``MAH_PEER_SRC``
instead, the control run, the peer's own server is kept and only given that folder on its
``PYTHONPATH``, as the peer is not installed.) Each
``StdioServerParameters`` that starts ``python -m memory_as_history.server`` is rewritten
to ``python -m embornal.interfaces.cli.main mcp --compat memory-as-history --db
<MEMORY_AS_HISTORY_DB>`` (the server as the peer's clients expect it: its tool lists,
refusals as plain results, its times; decision 0155) with the peer's profile variable
passed on as ``EMBORNAL_MCP_TOOLS`` and a fresh
``EMBORNAL_HOME`` beside the database; everything else of the test stays as written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import mcp.client.stdio as _stdio
from mcp.client.stdio import StdioServerParameters

__all__ = ["swap_server", "with_peer_path"]

PEER_SERVER_ARGS = ["-m", "memory_as_history.server"]
COMPAT = "memory-as-history"
_original_stdio_client = _stdio.stdio_client


def swap_server(params: StdioServerParameters, src: str) -> StdioServerParameters:
    """``params`` with the peer's server replaced by ``embornal mcp`` (other servers as given)."""
    if list(params.args) != PEER_SERVER_ARGS:
        return params
    env = dict(params.env or {})
    db = Path(env.pop("MEMORY_AS_HISTORY_DB", "memory.db"))
    profile = env.pop("MEMORY_AS_HISTORY_TOOLS", None)
    if profile is not None:
        env["EMBORNAL_MCP_TOOLS"] = profile
    env["EMBORNAL_HOME"] = str(db.parent / "embornal-home")
    env["PYTHONPATH"] = src
    args = ["-m", "embornal.interfaces.cli.main", "mcp", "--compat", COMPAT, "--db", str(db)]
    return params.model_copy(update={"command": sys.executable, "args": args, "env": env})


def with_peer_path(params: StdioServerParameters, src: str) -> StdioServerParameters:
    """``params`` of the peer's server with ``src`` (its unpacked sources) to import from."""
    if list(params.args) != PEER_SERVER_ARGS:
        return params
    return params.model_copy(update={"env": {**(params.env or {}), "PYTHONPATH": src}})


def _swapped_stdio_client(server: StdioServerParameters, *args: Any, **kwargs: Any) -> Any:
    if os.environ.get("MAH_SWAP_SRC"):
        server = swap_server(server, os.environ["MAH_SWAP_SRC"])
    else:
        server = with_peer_path(server, os.environ["MAH_PEER_SRC"])
    return _original_stdio_client(server, *args, **kwargs)


if os.environ.get("MAH_SWAP_SRC") or os.environ.get("MAH_PEER_SRC"):
    # The peer's test modules import ``stdio_client`` by name when collected, after this.
    _stdio.stdio_client = _swapped_stdio_client
