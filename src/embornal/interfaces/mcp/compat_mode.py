"""``embornal mcp --compat memory-as-history``: the server as memory-as-history 1.3's
clients expect it, where embornal deliberately answers otherwise (decision 0155).

Everything the mode changes is declared here; without it the server is embornal's.

* Its profiles are the peer's: ``core`` (15 tools: ``search`` where embornal's has
  ``store``) and ``full`` (its 46 tools); an unknown profile falls back to ``core`` with a
  warning, where embornal's stops the server.
* Refusals are plain results named after the peer's exception (``--refusals result``,
  decision 0143); a malformed id is a missing memory (``KeyError``), not invalid input.
* Times are answered with ``+00:00`` (``2024-01-01T00:00:00+00:00``), not ``Z``; a time
  given is an ISO-8601 timestamp with its zone: a relative time (``as_of="yesterday"``),
  a date (``since="2024-01-01"``) or a time without a zone is refused, not read.
* ``search_history`` expands one place of evidence through links and the session unless
  told otherwise (the peer's ``expand="both"``), where embornal's expands none (0167).
* ``memory_links`` answers its list of links (``links``: each with ``id``, ``from_id``,
  ``to_id``, ``relation``, ``reason``, ``created_at``, ``retired_at``), not the
  neighbourhood (0167).
* ``unpin`` answers ``{"memory_id", "unpinned": true}`` and nothing more.
* A recall query with no letter or digit in it (``"[]"``) is no query: recall answers the
  memories in its own order, as the peer ranks without filtering.

The argument forms and answer fields the peer's clients use that embornal takes anyway
(aliases, fields beside its own) are in :mod:`.compat`, in every mode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_types import CallToolResult, TextContent

from embornal.domain.as_of import relative
from embornal.errors import EmbornalError, InvalidInput, InvalidTime, MalformedId, NotFound
from embornal.interfaces.catalog import by_name
from embornal.interfaces.mcp.profiles import COMPAT_MODES

__all__ = ["MEMORY_AS_HISTORY", "CompatMode", "compat_mode"]

_PEER_CORE = (
    "remember",
    "recall",
    "search",
    "promote",
    "pin",
    "unpin",
    "corroborate",
    "provenance",
    "flag_sensitive",
    "forget",
    "restore",
    "narrate",
    "current_narrative",
    "due_for_consolidation",
    "audit_log",
)
_PEER_FULL = (
    *_PEER_CORE,
    "review",
    "due_for_review",
    "list_forgotten",
    "review_narrative",
    "narrative_history",
    "canonize",
    "decanonize",
    "end_scope",
    "list_canon",
    "active_scopes",
    "set_frame",
    "list_frames",
    "mark_conflict",
    "resolve_conflict",
    "list_conflicts",
    "set_history_context",
    "link_memories",
    "unlink_memories",
    "memory_links",
    "timeline",
    "search_history",
    "create_claim",
    "add_evidence",
    "retract_evidence",
    "adopt_claim",
    "revise_claim",
    "withdraw_claim",
    "inspect_claim",
    "recall_claims",
    "list_narratives",
    "search_archive",
)

_UTC_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
# The peer's timestamps: seconds, at most microseconds, and a zone.
_ZONED = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})")
_TIME_KEYS = frozenset({"at", "as_of", "since", "until", "valid_from", "valid_until"})
_WORD = re.compile(r"[^\W_]")  # a letter or digit
_UNPIN = ("memory_id", "unpinned")


def _is_time_key(key: str) -> bool:
    return key in _TIME_KEYS or key.endswith("_at")


def _plus_zero(value: Any, key: str = "") -> Any:
    """``value`` with each time of a time field written ``+00:00`` instead of ``Z``."""
    if isinstance(value, dict):
        return {k: _plus_zero(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_plus_zero(v, key) for v in value]
    if isinstance(value, str) and _is_time_key(key) and _UTC_Z.match(value):
        return value[:-1] + "+00:00"
    return value


def _time_arguments(tool: str) -> frozenset[str]:
    """The argument names (aliases too) of ``tool`` that take a time."""
    try:
        inputs = by_name(tool).inputs
    except KeyError:
        return frozenset()
    return frozenset(
        name
        for i in inputs
        if i.type in ("time", "as_of") or i.metavar == "TIME"
        for name in (i.tool_param, *i.aliases)
    )


@dataclass(frozen=True)
class CompatMode:
    """How the server answers a peer's clients: its tool lists by profile and each
    difference on the wire (the module's list)."""

    name: str
    profiles: Mapping[str, tuple[str, ...]]
    fallback: str = "core"
    refusals: str = "result"

    def profile(self, asked: str | None) -> tuple[str, str | None]:
        """The profile to serve for ``asked`` (None: the fallback), and the warning to
        print when ``asked`` is not one of the peer's."""
        wanted = (asked or "").strip().lower() or self.fallback
        if wanted in self.profiles:
            return wanted, None
        known = ", ".join(self.profiles)
        return self.fallback, (
            f"unknown MCP profile {asked!r} under --compat {self.name}; "
            f"expected one of {known}. Falling back to {self.fallback!r}."
        )

    def tools(self, profile: str) -> tuple[str, ...]:
        return self.profiles[self.profile(profile)[0]]

    def arguments(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """``arguments`` as the peer reads them: raises :class:`InvalidTime` for a time
        that is not a timestamp with its zone; drops a recall query that holds no letter
        or digit; expands a history search as the peer does by default."""
        out = dict(arguments)
        for name in _time_arguments(tool) & set(out):
            value = out[name]
            if isinstance(value, str) and not _ZONED.fullmatch(value):
                what = "a relative time" if relative(value) else "not a timestamp with a zone"
                raise InvalidTime(
                    f"{name}={value[:40]!r} is {what}",
                    hint="Give a timezone-aware ISO-8601 timestamp such as "
                    "2026-11-30T14:00:00Z or 2026-11-30T15:00:00+01:00.",
                )
        query = out.get("query")
        if tool == "recall" and isinstance(query, str) and not _WORD.search(query):
            del out["query"]
        if tool == "search_history":
            out.setdefault("expand", 1)  # via both: the peer's expand="both"
        return out

    def error_code(self, error: EmbornalError) -> str:
        """The code a refusal is answered with: a malformed id is a missing memory."""
        return NotFound.code if isinstance(error, MalformedId) else error.code

    def answer(self, tool: str, result: CallToolResult) -> CallToolResult:
        """An answer with the peer's times (and ``unpin``'s shape); a refusal as it is."""
        if result.is_error:
            return result

        def shaped(value: Any) -> Any:
            value = _plus_zero(value)
            if tool == "unpin" and isinstance(value, dict):
                return {k: value[k] for k in _UNPIN if k in value}
            if tool == "memory_links" and isinstance(value, dict) and "links" in value:
                return value["links"]
            return value

        content: list[Any] = []
        for block in result.content:
            if isinstance(block, TextContent):
                try:
                    value = json.loads(block.text)
                except ValueError:
                    content.append(block)
                    continue
                text = json.dumps(shaped(value), ensure_ascii=False, separators=(",", ":"))
                block = TextContent(type="text", text=text)
            content.append(block)
        data = result.structured_content and shaped(result.structured_content)
        if isinstance(data, list):  # structured content is an object: the SDK's wrapper
            data = {"result": data}
        return CallToolResult(content=content, structured_content=data)


MEMORY_AS_HISTORY = CompatMode(
    "memory-as-history", {"core": _PEER_CORE, "full": _PEER_FULL}, fallback="core"
)
_MODES = {MEMORY_AS_HISTORY.name: MEMORY_AS_HISTORY}
assert tuple(_MODES) == COMPAT_MODES


def compat_mode(name: str) -> CompatMode:
    """The compatibility mode called ``name``; :class:`InvalidInput` for another."""
    mode = _MODES.get(name.strip().lower())
    if mode is None:
        raise InvalidInput(
            f"unknown MCP compatibility mode {name!r}",
            hint=f"Use one of: {', '.join(_MODES)}, or leave it out.",
        )
    return mode
