"""memory-as-history 1.3's argument forms, read as embornal's before a tool call is checked
(docs/mcp.md, "memory-as-history compatibility"). As argument aliases are, they are
accepted and not shown: each tool's schema names embornal's arguments only.

* ``unlink_memories(link_id=...)``: the link id ``SOURCE:relation:TARGET`` that
  ``link_memories`` and ``memory_links`` answer, for its three parts;
* ``mode="lexical"`` and ``mode="semantic"``: ``keyword`` and ``vector``; ``search_history``
  searches by keyword only, so ``lexical`` is what it does and is dropped there;
* ``search_history(expand="none"|"links"|"session"|"both")``: no evidence, or one place
  of evidence through links, the session or both (``expand=1`` and ``via``).

Its arguments embornal cannot honour are refused as any unknown argument is, the hint
naming the call that does it (:func:`instead`): a filter dropped would answer unfiltered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from embornal.domain.narratives import parse_link

__all__ = ["instead", "peer_arguments"]

_MODES = {"lexical": "keyword", "semantic": "vector"}
_EXPAND = {"none": (0, None), "links": (1, "links"), "session": (1, "session"), "both": (1, "both")}


_PERIOD = 'search_history(query="...", session_id="...", since="...", until="...")'
_FRAME = 'search(query="...", frame="...")'
_INSTEAD = {
    ("search_archive", "frame"): _FRAME + " filters by frame",
    ("search_archive", "session_id"): _PERIOD + " searches a session or period",
    ("search_archive", "since"): _PERIOD + " searches a session or period",
    ("search_archive", "until"): _PERIOD + " searches a session or period",
    ("timeline", "frame"): _FRAME + " filters by frame",
    ("search_history", "frame"): _FRAME + " filters by frame",
    ("memory_links", "include_retired"): "audit_log() records each retired link",
    ("remember", "origin_id"): 'corroborate(memory_id="...", source="...", common_origin="...") '
    "records a repost of a shared original",
    ("remember", "material_type"): "say what the material is in content or source",
    ("remember", "capture_context"): "say how it was collected in content or source",
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
