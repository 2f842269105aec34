"""What the recall cascade's tools return to the model (decisions 0095-0097): ``recall``
and ``search`` answer the cascade, its ``hits`` the ranked ordinary memories as before
(so a caller that reads only them does not break) and the sections beside them;
``search_archive`` answers hits, as recall always did, and the same list as ``memories``
(memory-as-history's name). Each says how it retrieved (``retrieval``): the method, the
places the sections keep, how many it returned, and whether a model ran on the query."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from embornal.interfaces.canon.mcp_out import CanonEntryOut
from embornal.interfaces.conflicts.mcp_out import ConflictOut
from embornal.interfaces.history.mcp_out import DueItemOut, DueMemoriesOut
from embornal.interfaces.mcp.results import FactOut, HitOut, RecallOut
from embornal.interfaces.mcp.schemas import KEPT_NULL
from embornal.interfaces.narratives.mcp_out import (
    NarrativeOut,
    NarrativeReviewOut,
    NarrativeViewOut,
)
from embornal.service.narratives.results import NarrativeView

__all__ = ["BY_OUTPUT", "RESULTS", "AnchorOut", "ArchiveOut", "CascadeOut", "RetrievalOut"]

_NOTHING = "Nothing matched: try other or fewer words, a wider 'under', or no query."


class RetrievalOut(BaseModel):
    """How the answer was retrieved."""

    mode: str = Field(description="keyword, vector, hybrid, or strength (no query).")
    priority_policy: str = Field(
        description="anchors_first: anchors, then canon, then the rest share the limit; "
        "no_reserved_slots: one budget, no anchor takes a place."
    )
    returned_count: int
    inference_performed: bool = Field(description="Whether a model ran on the query.")

    @classmethod
    def of(cls, hits: list[Any], raw: Mapping[str, Any], policy: str) -> RetrievalOut:
        parts = [h.parts for h in hits]
        asked = raw.get("mode") if isinstance(raw.get("mode"), str) else None
        mode = (
            parts[0].method if parts else (asked or ("keyword" if raw.get("query") else "strength"))
        )
        ran = any(p.vector is not None or p.rerank is not None for p in parts)
        return cls(
            mode=mode, priority_policy=policy, returned_count=len(hits), inference_performed=ran
        )


class AnchorOut(FactOut):
    """A pinned memory and where it stands (set by :func:`~embornal.interfaces.mcp.compat.
    anchor_standing`, as memory-as-history's anchors carry it)."""

    stage: str | None = Field(None, description="consolidated: only such a memory is pinned.")
    status: str | None = Field(None, description="The stage again (memory-as-history's name).")
    tier: str | None = Field(None, description="archive, testimony or interpretation.")


class ArchiveOut(RecallOut):
    """The unpinned hits, also as ``memories``, and how they were retrieved."""

    memories: list[HitOut] = Field(default_factory=list, description="The hits again.")
    retrieval: RetrievalOut | None = None


class CascadeOut(RecallOut):
    """The ranked ``hits`` as recall always gave them, then the cascade's sections."""

    keep_null: ClassVar[tuple[str, ...]] = ("narrative", "narrative_review")

    anchors: list[AnchorOut] = Field(
        default_factory=list, description="Pinned memories: who and what matters, always whole."
    )
    canon: list[CanonEntryOut] = Field(
        default_factory=list, description="The active canon of the task scopes (not anchors)."
    )
    memories: list[HitOut] = Field(
        default_factory=list, description="The hits without anchors and canon, in the room left."
    )
    stale_interpretations: list[DueItemOut] = Field(
        default_factory=list, description="Interpretations overdue for review(memory_id, note)."
    )
    narrative: NarrativeOut | None = Field(None, json_schema_extra=KEPT_NULL)
    narrative_review: NarrativeReviewOut | None = Field(
        None,
        description="The account withheld, with why; review_narrative once resolved.",
        json_schema_extra=KEPT_NULL,
    )
    conflicts: list[ConflictOut] = Field(default_factory=list, description="Open conflicts.")
    retrieval: RetrievalOut | None = None


def cascade_out(found: Any, raw: Mapping[str, Any]) -> RecallOut:
    """The cascade; a past recall (``at``) is its ranked hits alone."""
    if isinstance(found, list):
        hits = [HitOut.of_hit(h) for h in found]
        return RecallOut(hits=hits, hint=None if hits else _NOTHING)
    view = NarrativeViewOut.of(NarrativeView("", found.narrative, found.narrative_review))
    out = CascadeOut(
        hits=[HitOut.of_hit(h) for h in found.hits],
        anchors=[AnchorOut(**FactOut.of(f).model_dump()) for f in found.anchors],
        canon=[CanonEntryOut.of(e) for e in found.canon],
        memories=[HitOut.of_hit(h) for h in found.memories],
        stale_interpretations=DueMemoriesOut.of(found.stale_interpretations).memories,
        narrative=view.narrative,
        narrative_review=view.narrative_review,
        conflicts=[ConflictOut.of(c) for c in found.conflicts],
        retrieval=RetrievalOut.of(list(found.hits), raw, "anchors_first"),
    )
    if not (out.hits or out.anchors or out.canon):
        out.hint = _NOTHING
    return out


def _archive_out(found: Any, raw: Mapping[str, Any]) -> RecallOut:
    hits = [HitOut.of_hit(h) for h in found]
    return ArchiveOut(
        hits=hits,
        memories=hits,
        hint=None if hits else _NOTHING,
        retrieval=RetrievalOut.of(list(found), raw, "no_reserved_slots"),
    )


Project = Callable[[Any, Mapping[str, Any]], BaseModel]

RESULTS: dict[str, tuple[type[BaseModel], Project]] = {
    "recall": (CascadeOut, cascade_out),
    "search_archive": (ArchiveOut, _archive_out),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], Project]] = {
    "Cascade": (CascadeOut, cascade_out),
}
