"""What the spine's and importance's tools give the model, by operation: the models are
the transport's own (:mod:`embornal.interfaces.mcp.results`), compact views of the wire
shapes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from embornal.interfaces.mcp.results import (
    ConfidenceOut,
    DueOut,
    EventOut,
    ImportanceOut,
    UndoOut,
    UnpinOut,
)

__all__ = ["BY_OUTPUT", "RESULTS"]

RESULTS: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], BaseModel]]] = {
    "confirm": (ConfidenceOut, lambda r, a: ConfidenceOut.of_fact(r)),
    "contradict": (ConfidenceOut, lambda r, a: ConfidenceOut.of_fact(r)),
    "add_evidence": (ConfidenceOut, lambda r, a: ConfidenceOut.of_fact(r)),
    "undo": (
        UndoOut,
        lambda r, a: UndoOut(undone=r[0].payload["undoes"], events=[EventOut.of(e) for e in r]),
    ),
    "pin": (ImportanceOut, lambda r, a: ImportanceOut.of_fact(r)),
    "unpin": (UnpinOut, lambda r, a: UnpinOut.of_fact(r)),
    "set_weight": (ImportanceOut, lambda r, a: ImportanceOut.of_fact(r)),
    "set_lifetime": (ImportanceOut, lambda r, a: ImportanceOut.of_fact(r)),
}
"""What the spine's tools give the model, by operation (decision 0177)."""

BY_OUTPUT: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], BaseModel]]] = {
    "list[DueFact]": (DueOut, lambda r, a: DueOut.of(r)),
}
