"""The REST models and answers of canon, frames and declared conflicts (decisions
0078–0080) and its tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`). Frames are filters, not access boundaries."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from embornal.domain.facts.fact import MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import FactOut, Time, _In, _Out

__all__ = ["BY_OUTPUT", "REQUESTS"]

_Label = Annotated[str, Field(min_length=1, max_length=200)]
_Id = Annotated[str, Field(min_length=1, max_length=64, description="A memory id (or prefix).")]
_Why = Annotated[str, Field(min_length=1, max_length=MAX_REASON_LENGTH, description="Why.")]


class CanonEntryOut(_Out):
    fact: FactOut
    scope: str
    reason: str | None
    since: Time
    actor: str
    eligible_for_recall: bool = Field(
        description="false: sensitive without corroboration (no priority slot)."
    )
    warnings: list[str]


class CanonEntriesOut(_Out):
    entries: list[CanonEntryOut]


class CanonRemovalOut(_Out):
    scopes: list[str]
    memory_ids: list[str]
    removed: int = Field(description="How many memberships ended.")
    reason: str


class ScopeInUseOut(_Out):
    scope: str
    entries: int


class ScopesOut(_Out):
    scopes: list[ScopeInUseOut]


class FrameInUseOut(_Out):
    frame: str
    memories: int


class FramesOut(_Out):
    frames: list[FrameInUseOut]


class CanonizeIn(_In):
    id: _Id
    scope: _Label
    reason: _Why


class DecanonizeIn(_In):
    id: _Id
    scope: _Label | None = None
    reason: _Why


class CanonQuery(_In):
    scope: _Label | None = None


class SetFrameIn(_In):
    id: _Id
    frame: _Label
    reason: _Why


class MarkConflictIn(_In):
    a: _Id
    b: _Id
    reason: _Why


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "CanonRemoval": CanonRemovalOut,
    "CanonEntry": CanonEntryOut,
    "list[CanonEntry]": CanonEntriesOut,
    "list[ScopeInUse]": ScopesOut,
    "list[FrameInUse]": FramesOut,
}

REQUESTS: dict[str, RequestModel] = {
    "decanonize": DecanonizeIn,
    "set_frame": SetFrameIn,
    "mark_conflict": MarkConflictIn,
    "canonize": CanonizeIn,
    "list_canon": CanonQuery,
    "active_scopes": None,
    "list_frames": None,
}
