"""The wire shapes of narrative results (spliced into :mod:`embornal.interfaces.wire`):
each its fields in order, times ISO-8601 UTC, issues as objects."""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.service.narratives.results import Narrative, NarrativeReview, NarrativeView

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of this capability's results (decision 0177): each its
    fields in order (``core.by_fields``)."""
    return core.by_fields(Narrative, NarrativeView, NarrativeReview)
