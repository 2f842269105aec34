"""The wire shapes of the history protocol facade's results (spliced into
:mod:`embornal.interfaces.wire`): each its fields in order, times ISO-8601 UTC."""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.clock import format_time
from embornal.hints import TYPE_CHECKING, Any
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


_SHAPES: dict[type, Callable[[Any], Wire]] = {AuditEntry: _audit}


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of this capability's results (decision 0177): an entry is
    read back by its fields (``core.reading``), which its shape gives in another order."""
    return _SHAPES, {AuditEntry: core.reading(AuditEntry)}
