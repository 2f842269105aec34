"""The REST models and answers of narrative accounts (decisions 0085–0087) and its tables
``BY_OUTPUT`` and ``REQUESTS`` (what they hold: :mod:`embornal.interfaces.capabilities`).
Routes under ``/narratives``."""

from __future__ import annotations

from pydantic import BaseModel, Field

from embornal.domain.bounds import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import Time, _In, _Out

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "NarrateIn",
    "NarrativeOut",
    "NarrativeViewOut",
    "NarrativesOut",
]

_Label = Field(None, max_length=200)
_Ids = Field(None, max_length=200)


class SourceIssueOut(_Out):
    ref: str = Field(description="The memory id, or the link id SOURCE:relation:TARGET.")
    issue: str = Field(
        description="missing, forgotten, stale_interpretation, "
        "insufficient_corroboration or link_missing."
    )
    live: bool = Field(
        description="It holds now (false: it cleared, which does not approve the version again)."
    )
    at: Time | None


class NarrativeOut(_Out):
    """One version of an account."""

    narrative_id: str
    scope: str
    perspective: str
    version: int
    content: str | None = Field(description="Null when withheld (stale) or purged.")
    coverage: str | None
    security_sensitive: bool
    memory_ids: list[str]
    link_ids: list[str]
    claim_ids: list[str]
    recorded_at: Time
    actor: str
    reason: str | None
    replaces: str | None
    current: bool
    usable: bool
    review_status: str = Field(description="current, stale or superseded.")
    provenance_status: str = Field(description="linked or unlinked.")
    source_issues: list[SourceIssueOut]
    reviewed_at: Time | None
    review_note: str | None
    withheld: bool
    warnings: list[str]


class NarrativeReviewOut(_Out):
    """The notice standing in for an unusable account (never its text)."""

    narrative_id: str
    scope: str
    perspective: str
    review_status: str
    source_issues: list[SourceIssueOut]
    hint: str


class NarrativeViewOut(_Out):
    scope: str
    narrative: NarrativeOut | None
    narrative_review: NarrativeReviewOut | None
    inspected: NarrativeOut | None = Field(
        None,
        description="The unusable current version with its text, for inspection only "
        "(decision 0157): not to be relied on until reviewed.",
    )


class NarrativesOut(_Out):
    narratives: list[NarrativeOut]


class NarrateIn(_In):
    content: str = Field(min_length=1, max_length=MAX_CONTENT_BYTES)
    reason: str = Field(min_length=1, max_length=MAX_REASON_LENGTH)
    memory_ids: list[str] | None = _Ids
    claim_ids: list[str] | None = _Ids
    link_ids: list[str] | None = _Ids
    scope: str | None = _Label
    perspective: str | None = _Label
    coverage: str | None = Field(None, max_length=MAX_REASON_LENGTH)
    security_sensitive: bool = Field(False, strict=True)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Narrative": NarrativeOut,
    "list[Narrative]": NarrativesOut,
    "NarrativeView": NarrativeViewOut,
}

REQUESTS: dict[str, RequestModel] = {
    "narrate": NarrateIn,
    "review_narrative": "NarrativeReviewIn",
    "narrative_history": "HistoryQuery",
    "list_narratives": "ListQuery",
    "current_narrative": "CurrentQuery",
}
