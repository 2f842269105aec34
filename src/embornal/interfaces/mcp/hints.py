"""Error hints worded for a model that talks to embornal through MCP tools.

The service writes hints for people at a terminal (``embornal memory cat PATH``).
Through MCP, a command that has a tool becomes that tool's call, and a command that
only a person can run (tokens, policies, models, installs) is something to ask the
user for.
"""

from __future__ import annotations

import re

__all__ = ["for_model"]

# CLI commands that an MCP tool does, in the words of that tool.
_AS_TOOLS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"`embornal memory recall[^`]*`", "the recall tool"),
        (r"`embornal memory cat( PATH)?`", 'cat(path="...")'),
        (r"`embornal memory tree /`", 'tree(path="/")'),
        (r"`embornal memory ls[^`]*`", 'ls(path="...")'),
        (r"`embornal memory show[^`]*`", 'show(id="...")'),
        (r"`embornal memory history[^`]*`", 'history(id_or_path="...")'),
        (r"`embornal memory restore[^`]*`", 'restore(id="...", reason="...")'),
    )
)
_COMMAND = re.compile(r"`(embornal [^`]+|pip install [^`]+)`")


def for_model(hint: str) -> str:
    """``hint`` with CLI commands turned into tool calls, or into a request to the user."""
    if not hint:
        return hint
    for pattern, replacement in _AS_TOOLS:
        hint = pattern.sub(replacement, hint)
    if _COMMAND.search(hint):
        hint = f"{hint} (Only a person can run such a command: ask the user.)"
    return hint
