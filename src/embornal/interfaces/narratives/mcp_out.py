"""What the narrative tools return to the model (decisions 0085–0087): compact views of
:mod:`embornal.service.narratives.results`. A withheld account is its review notice, and
its text is absent. ``narrative_history`` and ``list_narratives`` answer their list
itself and ``current_narrative`` null when a scope has no account, as memory-as-history's
do (decisions 0141, 0166)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field, RootModel

from embornal.interfaces.mcp.schemas import KEPT_NULL

__all__ = ["BY_OUTPUT", "NarrativeOut", "NarrativeViewOut"]


class IssueOut(BaseModel):
    ref: str
    issue: str
    live: bool = Field(description="false: cleared, yet not approved again.")


class NarrativeOut(BaseModel):
    keep_null: ClassVar[tuple[str, ...]] = ("superseded_by", "coverage")

    narrative_id: str
    id: str = Field(description="The narrative_id again (memory-as-history's name).")
    scope: str
    perspective: str
    version: int
    content: str | None = Field(None, description="Null when withheld: not usable.")
    coverage: str | None = Field(
        None, description="What it covers; null when withheld.", json_schema_extra=KEPT_NULL
    )
    memory_ids: list[str] = Field(default_factory=list)
    link_ids: list[str] = Field(default_factory=list)
    claim_ids: list[str] = Field(default_factory=list)
    usable: bool
    review_status: str = Field(description="current, stale or superseded.")
    source_issues: list[IssueOut] = Field(default_factory=list)
    security_sensitive: bool = False
    superseded_by: str | None = Field(
        None, description="The version that replaced it.", json_schema_extra=KEPT_NULL
    )
    warning: str | None = None

    @classmethod
    def of(cls, n: Any, superseded_by: str | None = None) -> NarrativeOut:
        return cls(
            narrative_id=n.narrative_id,
            id=n.narrative_id,
            scope=n.scope,
            perspective=n.perspective,
            coverage=n.coverage,
            version=n.version,
            content=n.content,
            memory_ids=list(n.memory_ids),
            link_ids=list(n.link_ids),
            claim_ids=list(n.claim_ids),
            usable=n.usable,
            review_status=n.review_status,
            source_issues=[
                IssueOut(ref=i.ref, issue=i.issue, live=i.live) for i in n.source_issues
            ],
            security_sensitive=n.security_sensitive,
            superseded_by=superseded_by,
            warning="; ".join(n.warnings) or None,
        )


class NarrativeReviewOut(BaseModel):
    narrative_id: str
    id: str = Field(description="The narrative_id again (memory-as-history's name).")
    review_status: str
    source_issues: list[IssueOut]
    hint: str


_WITHHELD = (
    "not usable: recall withholds this account until its source issues are "
    "resolved and it is reviewed (narrative_review says how); do not rely on it"
)


class NarrativeViewOut(BaseModel):
    """The account's view; ``id``, ``review_status``, ``usable`` and ``content`` of its
    current version at the top as memory-as-history's clients read them. ``narrative`` is
    the usable account only; an unusable one's text is at the top for this inspection,
    with ``usable: false`` and a warning (decision 0157)."""

    scope: str
    id: str | None = Field(None, description="The current version's narrative_id.")
    review_status: str | None = Field(None, description="current, or stale: not usable.")
    usable: bool = False
    content: str | None = Field(
        None, description="Its text; when usable is false, not to be relied on until reviewed."
    )
    warning: str | None = None
    narrative: NarrativeOut | None = None
    narrative_review: NarrativeReviewOut | None = None

    @classmethod
    def of(cls, v: Any) -> NarrativeViewOut:
        r = v.narrative_review
        n = v.narrative
        return cls(
            scope=v.scope,
            id=n.narrative_id if n is not None else r.narrative_id if r is not None else None,
            review_status=n.review_status
            if n is not None
            else r.review_status
            if r is not None
            else None,
            usable=n is not None and n.usable,
            content=n.content
            if n is not None
            else None
            if v.inspected is None
            else v.inspected.content,
            warning=None if n is not None or v.inspected is None else _WITHHELD,
            narrative=None if v.narrative is None else NarrativeOut.of(v.narrative),
            narrative_review=None
            if r is None
            else NarrativeReviewOut(
                narrative_id=r.narrative_id,
                id=r.narrative_id,
                review_status=r.review_status,
                source_issues=[
                    IssueOut(ref=i.ref, issue=i.issue, live=i.live) for i in r.source_issues
                ],
                hint=r.hint,
            ),
        )


class NarrativesOut(BaseModel):
    narratives: list[NarrativeOut]

    @classmethod
    def of(cls, rows: Any) -> NarrativesOut:
        """The versions, each with the one that replaced it when that one is listed too
        (a version is replaced by a newer one, and a history lists the newest first)."""
        rows = list(rows)
        after = {n.replaces: n.narrative_id for n in rows if n.replaces is not None}
        return cls(narratives=[NarrativeOut.of(n, after.get(n.narrative_id)) for n in rows])


class HistoryListOut(RootModel[list[NarrativeOut]]):
    """Every version, the newest first (or, for list_narratives, each account's current
    version): a list, not an object."""

    @classmethod
    def of(cls, rows: Any) -> HistoryListOut:
        return cls(NarrativesOut.of(rows).narratives)


class CurrentOut(RootModel[NarrativeViewOut | None]):
    """The account's view, or null when the scope has none (nor a review notice)."""

    @classmethod
    def of(cls, v: Any) -> CurrentOut:
        if v.narrative is None and v.narrative_review is None:
            return cls(None)
        return cls(NarrativeViewOut.of(v))


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

BY_OUTPUT: dict[str, tuple[type[BaseModel], _Project]] = {
    "Narrative": (NarrativeOut, lambda r, a: NarrativeOut.of(r)),
    "list[Narrative]": (HistoryListOut, lambda r, a: HistoryListOut.of(r)),
    "NarrativeView": (CurrentOut, lambda r, a: CurrentOut.of(r)),
}
