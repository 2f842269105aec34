"""The REST answers of the history protocol's operations: (answer model, query or body
model, envelope) by operation name, spliced into :mod:`.api`'s table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from embornal.interfaces.history.rest_models import (
    CorroborateIn,
    DueMemoriesOut,
    DueQuery,
    ForgottenListOut,
    ForgottenQuery,
    MemoryStatusOut,
    ProvenanceOut,
    RememberIn,
    ReviewIn,
)
from embornal.interfaces.http.schemas import ReasonIn
from embornal.interfaces.wire import to_wire

__all__ = ["HTTP"]


def _whole(c: Any, r: Any) -> Any:
    return to_wire(r)


def _memories(c: Any, r: Any) -> Any:
    return {"memories": to_wire(r)}


HTTP: dict[str, tuple[type[BaseModel], type[BaseModel] | None, Callable[[Any, Any], Any]]]
HTTP = {
    "remember": (MemoryStatusOut, RememberIn, _whole),
    "promote": (MemoryStatusOut, ReasonIn, _whole),
    "corroborate": (ProvenanceOut, CorroborateIn, _whole),
    "provenance": (ProvenanceOut, None, _whole),
    "review": (MemoryStatusOut, ReviewIn, _whole),
    "flag_sensitive": (MemoryStatusOut, ReasonIn, _whole),
    "due_for_consolidation": (DueMemoriesOut, DueQuery, _memories),
    "due_for_review": (DueMemoriesOut, DueQuery, _memories),
    "list_forgotten": (ForgottenListOut, ForgottenQuery, _memories),
}
