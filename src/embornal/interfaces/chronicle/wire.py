"""The wire shapes of the history protocol facade's results (spliced into
:mod:`embornal.interfaces.wire`): each its fields in order, times ISO-8601 UTC."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.clock import format_time, parse_time
from embornal.service.history.chronicle_results import AuditEntry

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]

Wire = dict[str, Any]


def _audit(e: AuditEntry) -> Wire:
    return {
        "position": e.position,
        "at": format_time(e.at),
        "action": e.action,
        "memory_id": e.memory_id,
        "claim_id": e.claim_id,
        "narrative_id": e.narrative_id,
        "conflict_id": e.conflict_id,
        "actor": e.actor,
        "actor_kind": e.actor_kind,
        "reason": e.reason,
        "event_type": e.event_type,
    }


def _opt(d: Mapping[str, Any], key: str) -> str | None:
    value = d.get(key)
    return None if value is None else str(value)


def _read_audit(d: Mapping[str, Any]) -> AuditEntry:
    return AuditEntry(
        int(d["position"]),
        parse_time(str(d["at"])),
        str(d["action"]),
        _opt(d, "memory_id"),
        str(d["actor"]),
        str(d["actor_kind"]),
        _opt(d, "reason"),
        str(d["event_type"]),
        _opt(d, "claim_id"),
        _opt(d, "narrative_id"),
        _opt(d, "conflict_id"),
    )


_SHAPES: dict[type, Callable[[Any], Wire]] = {AuditEntry: _audit}
_READERS: dict[type, Callable[[Mapping[str, Any]], Any]] = {AuditEntry: _read_audit}


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of this capability's results (decision 0177)."""
    return _SHAPES, _READERS
