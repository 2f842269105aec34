"""The wire shape of the recall cascade (spliced into :mod:`embornal.interfaces.wire`;
decisions 0095-0096): its fields in order, its sections in their order of priority, each
item in its own type's shape (a fact, a canon entry, a recall hit, a memory due for
review, a narrative or its review notice, a conflict)."""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.service.history.cascade_results import Cascade

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shape and reader of :class:`Cascade`: its fields in order (``core.by_fields``),
    each item in its own type's shape."""
    return core.by_fields(Cascade)
