"""The wire shapes of the timeline's results (spliced into :mod:`embornal.interfaces.wire`,
which gives the fact's own shape; decision 0089): each its fields in order, times ISO-8601
UTC, the fact in its own shape."""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers: each its fields in order (``core.by_fields``: the fact in
    the wire's own shape, read back by its own reader)."""
    return core.by_fields(TimelineEntry, Evidence, HistoryHit)
