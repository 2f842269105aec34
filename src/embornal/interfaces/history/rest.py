"""The REST answers of the history protocol's operations: its tables ``BY_OUTPUT`` and
``REQUESTS`` (what they hold: :mod:`embornal.interfaces.capabilities`)."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.interfaces.history.rest_models import (
    DueMemoriesOut,
    ForgottenListOut,
    MemoryStatusOut,
    ProvenanceOut,
)
from embornal.interfaces.http.derived import RequestModel

__all__ = ["BY_OUTPUT", "REQUESTS"]


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "MemoryStatus": MemoryStatusOut,
    "ProvenanceReport": ProvenanceOut,
    "list[DueMemory]": DueMemoriesOut,
    "list[ForgottenMemory]": ForgottenListOut,
}

REQUESTS: dict[str, RequestModel] = {
    "remember": "RememberIn",
    "promote": "ReasonIn",
    "corroborate": "CorroborateIn",
    "provenance": None,
    "review": "ReviewIn",
    "flag_sensitive": "ReasonIn",
    "list_forgotten": "ForgottenQuery",
}
