"""The storage contract's plain values that a read builds: a path's row, a fact's spine
row, a fact's vectors and the float32 packing of a vector.

They are here, apart from the contract's Protocols (:mod:`embornal.storage.contract.store`,
which re-exports them), so that a backend and the service build them without making the
contract's classes: a short command such as ``memory recall`` names those Protocols only
in annotations.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.records import record

__all__ = ["FactVector", "PathRow", "SpineRow", "pack_vector"]


def pack_vector(values: Sequence[float]) -> bytes:
    """A vector as the contract carries it: float32 values, machine byte order."""
    from array import array

    return array("f", values).tobytes()


@record
class FactVector:
    """One fact's vector and, for a long fact, its pieces' vectors (float32 bytes)."""

    fact_id: str
    vector: bytes
    pieces: tuple[bytes, ...] = ()


@record
class PathRow:
    """A path with what a reader sees there: its live facts and its children."""

    path: str
    fact_count: int
    child_count: int


@record
class SpineRow:
    """What staleness needs of one live fact (``memory due``): its kind, stored confidence,
    creation and last confirmation (ISO-8601 text), lifetime and ``status`` attribute."""

    fact_id: str
    kind: str
    confidence: float
    created_at: str
    last_confirmed_at: str | None
    lifetime: str
    status: str | None
