"""The REST models and answers of the timeline's operations (decisions 0088–0090) and its
tables ``BY_OUTPUT`` and ``REQUESTS`` (what they hold:
:mod:`embornal.interfaces.capabilities`). The link tools answer as ``link`` and ``links``
do (by their output)."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.interfaces.http.derived import RequestModel, answer_model, list_answer
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "HistoryHitOut",
    "TimelineEntryOut",
    "TimelineEvidenceOut",
]

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
    "link_memories": "MemoryLinkIn",
    "unlink_memories": "MemoryLinkIn",
    "timeline": "TimelineQuery",
}
