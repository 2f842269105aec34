"""The MCP tool profiles by name: light, so the package and its ``__main__`` name them
without loading the SDK; :mod:`.server` maps each to its tools."""

from __future__ import annotations

__all__ = ["COMPAT_MODES", "PROFILES"]

PROFILES = ("core", "full")
"""``core``: the history protocol's loop (store, recall, forget, restore, pin, …);
``full``: every tool."""

COMPAT_MODES = ("memory-as-history",)
"""``embornal mcp --compat NAME``: serve as another memory's clients expect it
(:mod:`.compat_mode`, decision 0155)."""
