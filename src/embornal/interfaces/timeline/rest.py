"""The REST models and answers of the timeline's operations (decisions 0088–0090) and its
tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`). The link tools answer as ``link`` and ``links``
do (by their output)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from embornal.domain.bounds import MAX_REASON_LENGTH
from embornal.domain.facts.fact import Fact
from embornal.interfaces.graph.catalog import RELATIONS
from embornal.interfaces.http.derived import RequestModel, answer_model, list_answer
from embornal.interfaces.http.schemas import ID_PATTERN, FactOut, Limit, _In
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "HistoryHitOut",
    "TimelineEntryOut",
    "TimelineEvidenceOut",
]

_When = Field(
    None, max_length=64, description="ISO-8601 (no zone: UTC; a date: its first instant)."
)
_Session = Field(None, max_length=200, description="The session or conversation label.")
_Relation = Literal["related", "updates", "explains", *RELATIONS]  # type: ignore[valid-type]


class ContextIn(_In):
    event_at: str | None = _When
    session: str | None = _Session
    session_position: int | None = Field(None, ge=0, le=2**53, strict=True)
    reason: str = Field(min_length=1, max_length=MAX_REASON_LENGTH, description="Why.")


class TimelineQuery(_In):
    session: str | None = _Session
    start: str | None = _When
    end: str | None = _When
    limit: Limit = None
    order: Literal["asc", "desc"] = "asc"
    include_forgotten: bool = False


class SearchHistoryQuery(_In):
    query: str = Field(min_length=1, max_length=2000, description="The words to look for.")
    start: str | None = _When
    end: str | None = _When
    session: str | None = _Session
    limit: Limit = None
    expand: int = Field(0, ge=0, le=5, description="Evidence per hit and per way (0-5).")
    via: Literal["both", "session", "links"] = "both"


class MemoryLinkIn(_In):
    source_id: str = Field(pattern=ID_PATTERN, description="The memory the link leaves.")
    target_id: str = Field(pattern=ID_PATTERN, description="The memory it points at.")
    relation: _Relation = Field(description="related, updates, explains or a typed relation.")
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class MemoryLinksQuery(_In):
    relation: _Relation | None = None
    direction: Literal["out", "in", "both"] = "both"
    limit: Limit = None
    include_retired: bool = Field(False, description="Also the retracted links.")


TimelineEntryOut = answer_model(
    TimelineEntry, nested={Fact: FactOut}, event_at="When the event happened; null: unknown."
)


TimelineOut = list_answer("TimelineOut", "entries", TimelineEntryOut)


TimelineEvidenceOut = answer_model(
    Evidence,
    "TimelineEvidenceOut",
    seed_id="The hit it is evidence for.",
    via="link or session.",
    offset="Places from the hit in its session.",
    direction="out: from the hit; in: towards it.",
)


HistoryHitOut = answer_model(HistoryHit, score="Keyword relevance; higher is better.")


HistoryHitsOut = list_answer("HistoryHitsOut", "hits", HistoryHitOut)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "list[TimelineEntry]": TimelineOut,
    "list[HistoryHit]": HistoryHitsOut,
}

REQUESTS: dict[str, RequestModel] = {
    "set_history_context": ContextIn,
    "link_memories": MemoryLinkIn,
    "unlink_memories": MemoryLinkIn,
    "memory_links": MemoryLinksQuery,
    "timeline": TimelineQuery,
    "search_history": SearchHistoryQuery,
}
