"""The wire shapes of the canon and frame results (spliced into
:mod:`embornal.interfaces.wire`; decision 0079): each its fields in order, the memory as a
fact's wire shape, times ISO-8601 UTC."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.service.history.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

Wire = dict[str, Any]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers, given the fact's (which :mod:`embornal.interfaces.wire`
    owns)."""
    fact, read_fact = core.fact, core.read_fact

    def entry(e: CanonEntry) -> Wire:
        return {
            "fact": fact(e.fact),
            "scope": e.scope,
            "reason": e.reason,
            "since": format_time(e.since),
            "actor": e.actor,
            "eligible_for_recall": e.eligible_for_recall,
            "warnings": list(e.warnings),
        }

    def read_entry(d: Mapping[str, Any]) -> CanonEntry:
        return CanonEntry(
            read_fact(d["fact"]),
            str(d["scope"]),
            d.get("reason"),
            parse_time(str(d["since"])),
            str(d["actor"]),
            bool(d["eligible_for_recall"]),
            tuple(str(w) for w in d.get("warnings") or ()),
        )

    def removal(r: CanonRemoval) -> Wire:
        return {
            "scopes": list(r.scopes),
            "memory_ids": list(r.memory_ids),
            "removed": r.removed,
            "reason": r.reason,
        }

    def read_removal(d: Mapping[str, Any]) -> CanonRemoval:
        return CanonRemoval(
            tuple(str(s) for s in d["scopes"]),
            tuple(str(m) for m in d["memory_ids"]),
            int(d["removed"]),
            str(d["reason"]),
        )

    out: dict[type, Callable[[Any], Wire]] = {
        CanonEntry: entry,
        CanonRemoval: removal,
        ScopeInUse: lambda s: {"scope": s.scope, "entries": s.entries},
        FrameInUse: lambda f: {"frame": f.frame, "memories": f.memories},
    }
    back: dict[type, Callable[[Mapping[str, Any]], Any]] = {
        CanonEntry: read_entry,
        CanonRemoval: read_removal,
        ScopeInUse: lambda d: ScopeInUse(str(d["scope"]), int(d["entries"])),
        FrameInUse: lambda d: FrameInUse(str(d["frame"]), int(d["memories"])),
    }
    return out, back
