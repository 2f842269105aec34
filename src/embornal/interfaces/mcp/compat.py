"""memory-as-history 1.3's argument forms, read as embornal's before a tool call is checked
(docs/mcp.md, "memory-as-history compatibility"). As argument aliases are, they are
accepted and not shown: each tool's schema names embornal's arguments only.

* ``unlink_memories(link_id=...)``: the link id ``SOURCE:relation:TARGET`` that
  ``link_memories`` and ``memory_links`` answer, for its three parts;
* ``mode="lexical"`` and ``mode="semantic"``: ``keyword`` and ``vector``; ``search_history``
  searches by keyword only, so ``lexical`` is what it does and is dropped there;
* ``search_history(expand="none"|"links"|"session"|"both")``: no evidence, or one place
  of evidence through links, the session or both (``expand=1`` and ``via``).

Its answers' fields beside embornal's are mostly set where each answer is made; recall's
anchors, which the cascade answers as facts, get their stage and tier here
(:func:`anchor_standing`).

Its arguments embornal cannot honour are refused as any unknown argument is, the hint
naming the call that does it (:func:`instead`): a filter dropped would answer unfiltered.

With ``embornal mcp --refusals result`` (decision 0143) a refusal is answered as
memory-as-history answers it, a plain result named after its exception
(:func:`refusal_as_result`): ``{"error": "ValueError", "code": "invalid_input", "message",
"hint"}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from embornal import errors
from embornal.domain.history.state import CONSOLIDATED
from embornal.domain.narratives.accounts import parse_link
from embornal.interfaces.cascade.mcp_out import CascadeOut
from embornal.service.memory import Memory

__all__ = [
    "REFUSALS",
    "anchor_standing",
    "instead",
    "peer_arguments",
    "peer_error",
    "refusal_as_result",
]

REFUSALS = ("error", "result")
"""How a refusal is answered: ``isError`` (embornal's), or a plain result (the peer's)."""

# memory-as-history's exception for each kind of refusal, most specific first.
_PEER_ERRORS: tuple[tuple[type[errors.EmbornalError], str], ...] = (
    (errors.AccessDenied, "PermissionError"),
    (errors.ProtocolViolation, "PermissionError"),
    (errors.NotFound, "KeyError"),
    (errors.InvalidInput, "ValueError"),
    (errors.Conflict, "ValueError"),
)

_MODES = {"lexical": "keyword", "semantic": "vector"}
_EXPAND = {"none": (0, None), "links": (1, "links"), "session": (1, "session"), "both": (1, "both")}


_PERIOD = 'search_history(query="...", session_id="...", since="...", until="...")'
_FRAME = 'search(query="...", frame="...")'
_INSTEAD = {
    ("search_archive", "session_id"): _PERIOD + " searches a session or period",
    ("search_archive", "since"): _PERIOD + " searches a session or period",
    ("search_archive", "until"): _PERIOD + " searches a session or period",
    ("timeline", "frame"): _FRAME + " filters by frame",
    ("search_history", "frame"): _FRAME + " filters by frame",
}


def instead(tool: str, unknown: list[str]) -> str:
    """What to call for memory-as-history arguments ``tool`` does not take ("" if none)."""
    said = dict.fromkeys(_INSTEAD[(tool, a)] for a in unknown if (tool, a) in _INSTEAD)
    return "".join(f" {s}." for s in said)


def peer_arguments(tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """``arguments`` with memory-as-history's forms read as embornal's; raises
    :class:`~embornal.errors.InvalidInput` for a malformed link id."""
    out = dict(arguments)
    mode = out.get("mode")
    if isinstance(mode, str) and mode in _MODES:
        if tool == "search_history" and mode == "lexical":
            del out["mode"]
        elif tool != "search_history":
            out["mode"] = _MODES[mode]
    expand = out.get("expand")
    if tool == "search_history" and isinstance(expand, str) and expand in _EXPAND:
        count, via = _EXPAND[expand]
        out["expand"] = count
        if via is not None:
            out.setdefault("via", via)
    if tool == "unlink_memories" and "link_id" in out:
        source, relation, target = parse_link(out.pop("link_id"))
        out.update(source_id=source, relation=relation, target_id=target)
    return out


def anchor_standing(memory: Memory, out: BaseModel) -> BaseModel:
    """``out`` with each anchor of a recall or search answer given its ``stage``/``status``
    (consolidated: pin refuses working material) and ``tier`` as the memory reads them;
    any other answer as it is."""
    if isinstance(out, CascadeOut):
        for anchor in out.anchors:
            anchor.stage = anchor.status = CONSOLIDATED
            anchor.tier = memory.provenance(anchor.id).tier
    return out


def _codes(root: type[errors.EmbornalError]) -> dict[str, type[errors.EmbornalError]]:
    found = {root.code: root}
    for sub in root.__subclasses__():
        found.update(_codes(sub))
    return found


def peer_error(code: str) -> str | None:
    """memory-as-history's exception for an error code of embornal (``ValueError``,
    ``PermissionError``, ``KeyError``), or None when the peer has no refusal like it (an
    internal error, a storage or configuration failure)."""
    cls = _codes(errors.EmbornalError).get(code)
    if cls is None:
        return None
    return next((name for kind, name in _PEER_ERRORS if issubclass(cls, kind)), None)


def refusal_as_result(result: CallToolResult) -> CallToolResult:
    """An ``isError`` refusal ``{error, message, hint}`` as a plain result named after the
    peer's exception, embornal's code kept as ``code``; any other result as it is."""
    if not result.is_error or len(result.content) != 1:
        return result
    block = result.content[0]
    if not isinstance(block, TextContent):
        return result
    try:
        said = json.loads(block.text)
    except ValueError:
        return result
    name = peer_error(said.get("error", "")) if isinstance(said, dict) else None
    if name is None:
        return result
    data = {"error": name, "code": said["error"], **{k: v for k, v in said.items() if k != "error"}}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)])
