"""The REST models and answers of narrative accounts (decisions 0085–0087): its answers by
output type (``BY_OUTPUT``), by operation where a route answers otherwise (``HTTP``:
answer model, query or body model, envelope) and the request models of the others
(``REQUESTS``), merged into :mod:`.api`'s tables. Routes under ``/narratives``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from embornal.domain.bounds import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import Time, _In, _Out

__all__ = [
    "BY_OUTPUT",
    "HTTP",
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


HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[[Any, Any], Any]]] = {}

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Narrative": NarrativeOut,
    "list[Narrative]": NarrativesOut,
    "NarrativeView": NarrativeViewOut,
}
"""The answer model of each route whose operation returns one of these types, unless
``HTTP`` answers it otherwise; a list is sent under the route's ``items`` (decision
0184)."""

REQUESTS: dict[str, RequestModel] = {
    "narrate": NarrateIn,
    "review_narrative": "NarrativeReviewIn",
    "narrative_history": "HistoryQuery",
    "list_narratives": "ListQuery",
    "current_narrative": "CurrentQuery",
}
"""The query or body model of each route answered by its output, where it is not the one
made from the record and named after the operation id (decision 0184)."""
