"""The wire shapes of the canon and frame results (spliced into
:mod:`embornal.interfaces.wire`; decision 0079): each its fields in order, the memory as a
fact's wire shape, times ISO-8601 UTC."""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.service.history.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers: each its fields in order (``core.by_fields``)."""
    return core.by_fields(CanonEntry, CanonRemoval, ScopeInUse, FrameInUse)
