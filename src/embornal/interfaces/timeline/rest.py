"""The REST models and answers of the timeline's operations (decisions 0088–0090) and its
tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`). The link tools answer as ``link`` and ``links``
do (by their output)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from embornal.domain.bounds import MAX_REASON_LENGTH
from embornal.interfaces.graph.catalog import RELATIONS
from embornal.interfaces.http.derived import RequestModel, answer_model, list_answer
from embornal.interfaces.http.schemas import ID_PATTERN, _In
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "HistoryHitOut",
    "TimelineEntryOut",
    "TimelineEvidenceOut",
]

_Relation = Literal["related", "updates", "explains", *RELATIONS]  # type: ignore[valid-type]


class MemoryLinkIn(_In):
    source_id: str = Field(pattern=ID_PATTERN, description="The memory the link leaves.")
    target_id: str = Field(pattern=ID_PATTERN, description="The memory it points at.")
    relation: _Relation = Field(description="related, updates, explains or a typed relation.")
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


TimelineEntryOut = answer_model(TimelineEntry, event_at="When the event happened; null: unknown.")


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
    "set_history_context": "ContextIn",
    "link_memories": MemoryLinkIn,
    "unlink_memories": MemoryLinkIn,
    "timeline": "TimelineQuery",
}
