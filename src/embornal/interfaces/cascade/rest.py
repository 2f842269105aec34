"""The REST models and answers of the recall cascade (decisions 0095-0097) and its tables
``BY_OUTPUT`` and ``REQUESTS`` (what they hold: :mod:`embornal.interfaces.capabilities`).
Routes ``GET /recall/cascade``, ``GET /search`` and ``GET /search/archive``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from embornal.domain.bounds import MAX_PATH_LENGTH
from embornal.domain.facts.fact import Fact
from embornal.interfaces.canon.rest import CanonEntryOut
from embornal.interfaces.conflicts.rest import ConflictOut
from embornal.interfaces.history.rest_models import DueMemoryOut
from embornal.interfaces.http.derived import RequestModel, answer_model
from embornal.interfaces.http.schemas import (
    AllIn,
    AskedIn,
    FactOut,
    Limit,
    RecallHitOut,
    RerankIn,
    _In,
)
from embornal.interfaces.narratives.rest import NarrativeOut, NarrativeReviewOut
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.history.canon_results import CanonEntry
from embornal.service.history.cascade_results import Cascade
from embornal.service.history.results import DueMemory
from embornal.service.narratives.results import Narrative, NarrativeReview
from embornal.service.results import RecallHit

__all__ = ["BY_OUTPUT", "REQUESTS", "CascadeOut"]

_Label = Field(None, min_length=1, max_length=200)
_Mode = Literal["auto", "keyword", "vector", "hybrid"]
_Under = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=MAX_PATH_LENGTH,
        pattern="^/",
        description="Only ordinary memories at or below this path.",
    ),
]


CascadeOut = answer_model(
    Cascade,
    doc="""Anchors first, then the canon, then the ordinary memories (``limit`` their one
    budget, the anchors always whole); ``hits`` is the ordinary ranking as ``/recall``
    gives it.""",
    nested={
        Fact: FactOut,
        CanonEntry: CanonEntryOut,
        RecallHit: RecallHitOut,
        DueMemory: DueMemoryOut,
        Narrative: NarrativeOut,
        NarrativeReview: NarrativeReviewOut,
        ConflictRecord: ConflictOut,
    },
    anchors="Live pinned memories, always whole.",
    canon="Active canon entries that are not anchors.",
    memories="The hits without anchors and canon.",
    hits="The ordinary ranking, the first `limit`.",
    narrative_review="The notice standing in for a withheld account.",
    conflicts="Open conflicts the subject may see.",
)


class CascadeQuery(_In):
    q: str | None = Field(None, description="Keywords; leave out for the strongest memories.")
    limit: Limit = None
    frame: str | None = _Label
    mode: _Mode = "auto"
    under: _Under = None
    scope: str | None = _Label
    reinforce: bool = Field(True, description="false: a read-only cascade (no strength lift).")
    now: AskedIn = None
    rerank: RerankIn = False
    all: AllIn = False


class ArchiveQuery(_In):
    q: str = Field(min_length=1, description="Keywords or a question.")
    limit: Limit = None
    frame: str | None = _Label
    mode: _Mode = "auto"
    under: _Under = None


class SearchQuery(ArchiveQuery):  # the archive's query, and a scope and all
    scope: str | None = _Label
    all: AllIn = False


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Cascade": CascadeOut,
}

REQUESTS: dict[str, RequestModel] = {
    "recall_cascade": CascadeQuery,
    "search": SearchQuery,
    "search_archive": ArchiveQuery,
}
