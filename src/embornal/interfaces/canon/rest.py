"""The REST models and answers of canon, frames and declared conflicts (decisions
0078–0080): its answers by output type (``BY_OUTPUT``), by operation where a route
answers otherwise (``HTTP``: answer model, query or body model, envelope) and the
request models of the others (``REQUESTS``), merged into :mod:`.api`'s tables. Frames
are filters, not access boundaries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import BaseModel, Field

from embornal.domain.facts.fact import MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import FactOut, Time, _In, _Out

__all__ = ["BY_OUTPUT", "HTTP", "REQUESTS"]

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


HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[..., object]]] = {}

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "CanonRemoval": CanonRemovalOut,
    "CanonEntry": CanonEntryOut,
    "list[CanonEntry]": CanonEntriesOut,
    "list[ScopeInUse]": ScopesOut,
    "list[FrameInUse]": FramesOut,
}
"""The answer model of each route whose operation returns one of these types, unless
``HTTP`` answers it otherwise; a list is sent under the route's ``items`` (decision
0184)."""

REQUESTS: dict[str, RequestModel] = {
    "decanonize": DecanonizeIn,
    "set_frame": SetFrameIn,
    "mark_conflict": MarkConflictIn,
    "canonize": CanonizeIn,
    "list_canon": CanonQuery,
    "active_scopes": None,
    "list_frames": None,
}
"""The query or body model of each route answered by its output, where it is not the one
made from the record and named after the operation id (decision 0184)."""
