"""The MCP interface: embornal's tools for AI agents, over stdio.

Light to import: the SDK (about a second to import) loads only when
``build_server`` or ``run_stdio`` is first used.

>>> from embornal.interfaces.mcp import run_stdio      # doctest: +SKIP
>>> run_stdio(db_path=None, subject="default", profile="core")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.mcp.profiles import PROFILES
from embornal.lazy import exports

if TYPE_CHECKING:
    from embornal.interfaces.mcp.server import build_server, run_stdio

__all__ = ["PROFILES", "build_server", "run_stdio"]


__getattr__, __dir__ = exports(__name__, {"build_server": ".server", "run_stdio": ".server"})
