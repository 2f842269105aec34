"""The REST models and answers of narrative accounts (decisions 0085–0087) and its tables
``BY_OUTPUT`` and ``REQUESTS`` (what they hold: :mod:`embornal.interfaces.capabilities`).
Routes under ``/narratives``."""

from __future__ import annotations

from pydantic import BaseModel, Field

from embornal.interfaces.http.derived import RequestModel, answer_model, list_answer
from embornal.service.narratives.results import (
    Narrative,
    NarrativeReview,
    NarrativeView,
    SourceIssue,
)

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "NarrativeOut",
    "NarrativeViewOut",
    "NarrativesOut",
]

_Label = Field(None, max_length=200)
_Ids = Field(None, max_length=200)


SourceIssueOut = answer_model(
    SourceIssue,
    ref="The memory id, or the link id SOURCE:relation:TARGET.",
    issue="missing, forgotten, stale_interpretation, insufficient_corroboration or link_missing.",
    live="It holds now (false: it cleared, which does not approve the version again).",
)


NarrativeOut = answer_model(
    Narrative,
    doc="One version of an account.",
    content="Null when withheld (stale) or purged.",
    review_status="current, stale or superseded.",
    provenance_status="linked or unlinked.",
)


NarrativeReviewOut = answer_model(
    NarrativeReview, doc="The notice standing in for an unusable account (never its text)."
)


NarrativeViewOut = answer_model(
    NarrativeView,
    inspected="The unusable current version with its text, for inspection only "
    "(decision 0157): not to be relied on until reviewed.",
)


NarrativesOut = list_answer("NarrativesOut", "narratives", NarrativeOut)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Narrative": NarrativeOut,
    "list[Narrative]": NarrativesOut,
    "NarrativeView": NarrativeViewOut,
}

REQUESTS: dict[str, RequestModel] = {
    "review_narrative": "NarrativeReviewIn",
    "narrative_history": "HistoryQuery",
    "list_narratives": "ListQuery",
    "current_narrative": "CurrentQuery",
}
