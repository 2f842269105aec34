"""The REST models and answers of the recall cascade (decisions 0095-0097) and its tables
``BY_OUTPUT`` and ``REQUESTS`` (what they hold: :mod:`embornal.interfaces.capabilities`).
Routes ``GET /recall/cascade``, ``GET /search`` and ``GET /search/archive``."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.domain.facts.fact import Fact
from embornal.interfaces.canon.rest import CanonEntryOut
from embornal.interfaces.conflicts.rest import ConflictOut
from embornal.interfaces.history.rest_models import DueMemoryOut
from embornal.interfaces.http.derived import RequestModel, answer_model
from embornal.interfaces.http.schemas import (
    FactOut,
    RecallHitOut,
)
from embornal.interfaces.narratives.rest import NarrativeOut, NarrativeReviewOut
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.history.canon_results import CanonEntry
from embornal.service.history.cascade_results import Cascade
from embornal.service.history.results import DueMemory
from embornal.service.narratives.results import Narrative, NarrativeReview
from embornal.service.results import RecallHit

__all__ = ["BY_OUTPUT", "REQUESTS", "CascadeOut"]

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


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Cascade": CascadeOut,
}

REQUESTS: dict[str, RequestModel] = {
    "recall_cascade": "CascadeQuery",
    "search_archive": "ArchiveQuery",
}
