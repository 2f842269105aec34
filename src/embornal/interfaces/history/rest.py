"""The REST answers of the history protocol's operations: its answers by output type
(``BY_OUTPUT``), by operation where a route answers otherwise (``HTTP``: answer model,
query or body model, envelope) and the request models of the others (``REQUESTS``),
merged into :mod:`.api`'s tables."""

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
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import ReasonIn

__all__ = ["BY_OUTPUT", "HTTP", "REQUESTS"]


HTTP: dict[str, tuple[type[BaseModel], type[BaseModel] | None, Callable[[Any, Any], Any]]] = {}

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "MemoryStatus": MemoryStatusOut,
    "ProvenanceReport": ProvenanceOut,
    "list[DueMemory]": DueMemoriesOut,
    "list[ForgottenMemory]": ForgottenListOut,
}
"""The answer model of each route whose operation returns one of these types, unless
``HTTP`` answers it otherwise; a list is sent under the route's ``items`` (decision
0184)."""

REQUESTS: dict[str, RequestModel] = {
    "remember": RememberIn,
    "promote": ReasonIn,
    "corroborate": CorroborateIn,
    "provenance": None,
    "review": ReviewIn,
    "flag_sensitive": ReasonIn,
    "due_for_consolidation": DueQuery,
    "due_for_review": DueQuery,
    "list_forgotten": ForgottenQuery,
}
"""The query or body model of each route answered by its output, where it is not the one
made from the record and named after the operation id (decision 0184)."""
