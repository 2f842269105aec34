"""The wire shapes of the claims ledger's results (spliced into
:mod:`embornal.interfaces.wire`): each record its fields in order (the generic shape of a
dataclass, nested records as objects, times ISO-8601 UTC), read back the same way."""

from __future__ import annotations

from embornal.hints import TYPE_CHECKING
from embornal.service.claims.results import ClaimList, ClaimRecord

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["shapes"]


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shapes and readers of the ledger's results: each its fields in order
    (``core.by_fields``, the generic shape of a dataclass; decision 0081)."""
    return core.by_fields(ClaimRecord, ClaimList)
