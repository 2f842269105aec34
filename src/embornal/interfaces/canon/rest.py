"""The REST models and answers of canon, frames and declared conflicts (decisions
0078–0080) and its tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`). Frames are filters, not access boundaries."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.interfaces.http.derived import RequestModel, answer_model, list_answer
from embornal.service.history.canon_results import (
    CanonEntry,
    CanonRemoval,
    FrameInUse,
    ScopeInUse,
)

__all__ = ["BY_OUTPUT", "REQUESTS"]


CanonEntryOut = answer_model(
    CanonEntry,
    eligible_for_recall="false: sensitive without corroboration (no priority slot).",
)
CanonRemovalOut = answer_model(CanonRemoval, removed="How many memberships ended.")
ScopeInUseOut = answer_model(ScopeInUse)
FrameInUseOut = answer_model(FrameInUse)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "CanonRemoval": CanonRemovalOut,
    "CanonEntry": CanonEntryOut,
    "list[CanonEntry]": list_answer("CanonEntriesOut", "entries", CanonEntryOut),
    "list[ScopeInUse]": list_answer("ScopesOut", "scopes", ScopeInUseOut),
    "list[FrameInUse]": list_answer("FramesOut", "frames", FrameInUseOut),
}

REQUESTS: dict[str, RequestModel] = {
    "list_canon": "CanonQuery",
    "active_scopes": None,
    "list_frames": None,
}
