"""The MCP tool profiles by name: light, so the package and its ``__main__`` name them
without loading the SDK; :mod:`.server` maps each to its tools."""

from __future__ import annotations

__all__ = ["PROFILES"]

PROFILES = ("core", "full")
"""``core``: the history protocol's loop (store, recall, forget, restore, pin, …);
``full``: every tool."""
