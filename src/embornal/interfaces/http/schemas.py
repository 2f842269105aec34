"""The JSON bodies of the REST API: pydantic models, built from the service results.

The shapes follow the service dataclasses field by field (as ``--json`` in the CLI
does): times are ISO-8601 UTC with microseconds and ``Z``, tags are ``"k=v"``, a
fact also carries its ``state``. The same models give the OpenAPI schemas, so the
document describes exactly what the server sends.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.clock import format_time
from embornal.domain.events import Event
from embornal.domain.facts import MAX_CONTENT_BYTES, MAX_REASON_LENGTH, Fact
from embornal.domain.paths import MAX_PATH_LENGTH
from embornal.domain.ranking import ScoreParts
from embornal.domain.tags import Tag
from embornal.service.results import FactDetail, FactView, PathEntry, RecallHit, TreeNode

__all__ = [
    "ID_PATTERN",
    "CatOut",
    "CatQuery",
    "EffectiveTagOut",
    "EventOut",
    "FactDetailOut",
    "FactOut",
    "FactViewOut",
    "HealthOut",
    "HistoryOut",
    "LsOut",
    "LsQuery",
    "PathEntryOut",
    "Problem",
    "ProblemIssue",
    "ReasonIn",
    "RecallHitOut",
    "RecallOut",
    "RecallQuery",
    "ScorePartsOut",
    "StoreIn",
    "SupersedeIn",
    "TagsOut",
    "TagsQuery",
    "TreeNodeOut",
    "TreeQuery",
    "WhoAmIOut",
]

Time = Annotated[
    str,
    WithJsonSchema(
        {
            "type": "string",
            "format": "date-time",
            "description": "UTC, ISO-8601 with microseconds, e.g. 2026-11-30T14:00:00.000000Z",
        }
    ),
]
ID_PATTERN = "^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{1,26}$"
FactState = Literal["active", "superseded", "forgotten", "purged"]


def _time(moment: datetime | None) -> str | None:
    return format_time(moment) if moment is not None else None


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- responses --------------------------------------------------------------------------------


class WhoAmIOut(_Out):
    """Who the token stands for, and the actor kind its writes are recorded with."""

    subject: str
    actor_kind: str


class HealthOut(_Out):
    status: Literal["ok"]
    version: str


class FactOut(_Out):
    """One fact as the memory holds it: stored signals, never the strength."""

    id: str = Field(description="ULID of the fact (26 characters).")
    path: str
    content: str
    kind: str
    owner: str = Field(description="The subject that wrote the fact.")
    created_at: Time
    last_recall_at: Time | None
    recall_count: int
    stability_days: float
    supersedes_id: str | None
    superseded_by: str | None
    deleted_at: Time | None
    purged_at: Time | None
    tags: list[str] = Field(description="The fact's own tags as k=v (the owner tag included).")
    state: FactState

    @classmethod
    def of(cls, fact: Fact) -> FactOut:
        return cls(
            id=fact.id,
            path=fact.path,
            content=fact.content,
            kind=fact.kind,
            owner=fact.owner,
            created_at=format_time(fact.created_at),
            last_recall_at=_time(fact.last_recall_at),
            recall_count=fact.recall_count,
            stability_days=fact.stability_days,
            supersedes_id=fact.supersedes_id,
            superseded_by=fact.superseded_by,
            deleted_at=_time(fact.deleted_at),
            purged_at=_time(fact.purged_at),
            tags=[str(t) for t in fact.tags],
            state=fact.state,  # type: ignore[arg-type]
        )


class FactViewOut(_Out):
    """A fact with its strength at the moment it was read."""

    fact: FactOut
    strength: float

    @classmethod
    def of(cls, view: FactView) -> FactViewOut:
        return cls(fact=FactOut.of(view.fact), strength=view.strength)


class ScorePartsOut(_Out):
    """Every component of one hit's score (the recall method may add more)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    total: float
    method: str
    strength: float
    keyword: float | None = Field(None, description="Rescaled BM25, 1.0 best of the candidates.")
    bm25: float | None = Field(
        None,
        description="Raw FTS5 bm25 (lower is better); null unless the caller reads the "
        "whole memory.",
    )
    keyword_rank: int | None = Field(None, description="1-based rank in the keyword list.")
    vector: float | None = Field(None, description="Cosine similarity.")
    vector_scaled: float | None = Field(
        None, description="The cosine rescaled over the candidates, as hybrid fusion took it."
    )
    vector_rank: int | None = Field(None, description="1-based rank in the vector list.")
    neighbour: float | None = Field(
        None, description="Gain from the neighbouring facts on the same path that matched."
    )
    strength_weight: float | None = None
    matched_terms: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, parts: ScoreParts) -> ScorePartsOut:
        return cls.model_validate(parts.as_dict())


class RecallHitOut(_Out):
    fact: FactOut
    score: float
    strength: float
    parts: ScorePartsOut

    @classmethod
    def of(cls, hit: RecallHit) -> RecallHitOut:
        return cls(
            fact=FactOut.of(hit.fact),
            score=hit.score,
            strength=hit.strength,
            parts=ScorePartsOut.of(hit.parts),
        )


class RecallOut(_Out):
    """Hits, best first."""

    hits: list[RecallHitOut]


class PathEntryOut(_Out):
    path: str
    fact_count: int = Field(description="Visible live facts on this path itself.")
    child_count: int = Field(description="Visible paths one level below.")

    @classmethod
    def of(cls, entry: PathEntry) -> PathEntryOut:
        return cls(path=entry.path, fact_count=entry.fact_count, child_count=entry.child_count)


class LsOut(_Out):
    path: str
    entries: list[PathEntryOut]


class TreeNodeOut(_Out):
    path: str
    name: str
    fact_count: int
    children: list[TreeNodeOut]

    @classmethod
    def of(cls, node: TreeNode) -> TreeNodeOut:
        return cls(
            path=node.path,
            name=node.name,
            fact_count=node.fact_count,
            children=[cls.of(c) for c in node.children],
        )


class CatOut(_Out):
    path: str
    facts: list[FactViewOut]


class EffectiveTagOut(_Out):
    """A tag that decides access to a fact, and where it comes from."""

    tag: str = Field(description="k=v")
    key: str
    value: str
    source: str | None = Field(
        description="The path the tag is inherited from; null: the fact's own tag."
    )

    @classmethod
    def of(cls, tag: Tag, source: str | None) -> EffectiveTagOut:
        return cls(tag=str(tag), key=tag.key, value=tag.value, source=source)


class TagsOut(_Out):
    fact_id: str
    tags: list[EffectiveTagOut]


class EventOut(_Out):
    """One event of the log (the source of truth)."""

    position: int
    stream_id: str
    version: int
    type: str
    payload: dict[str, Any]
    actor: str
    actor_kind: str
    recorded_at: Time
    reason: str | None
    schema_version: int
    redacted: bool

    @classmethod
    def of(cls, event: Event) -> EventOut:
        return cls(
            position=event.position,
            stream_id=event.stream_id,
            version=event.version,
            type=event.type,
            payload=event.payload,
            actor=event.actor,
            actor_kind=event.actor_kind,
            recorded_at=format_time(event.recorded_at),
            reason=event.reason,
            schema_version=event.schema_version,
            redacted=event.redacted,
        )


class FactDetailOut(_Out):
    """One fact whole: state, strength, tags with their sources, links and events."""

    fact: FactOut
    strength: float
    effective_tags: list[EffectiveTagOut]
    links: list[str]
    events: list[EventOut]

    @classmethod
    def of(cls, detail: FactDetail) -> FactDetailOut:
        return cls(
            fact=FactOut.of(detail.fact),
            strength=detail.strength,
            effective_tags=[EffectiveTagOut.of(t, s) for t, s in detail.effective_tags],
            links=list(detail.links),
            events=[EventOut.of(e) for e in detail.events],
        )


class HistoryOut(_Out):
    target: str = Field(description="The fact id (or prefix) as given.")
    events: list[EventOut] = Field(description="Oldest first, the supersession chain included.")


class ProblemIssue(_Out):
    """One invalid part of a request (422)."""

    location: str = Field(description="body, query or path, then the field, e.g. query.limit")
    message: str


class Problem(_Out):
    """An error, as RFC 9457 problem details (``application/problem+json``)."""

    type: str = Field(description="urn:embornal:error:CODE")
    title: str
    status: int
    detail: str
    code: str = Field(description="A stable machine name, e.g. not_found, invalid_path.")
    hint: str = Field(description="What to do next (may be empty).")
    errors: list[ProblemIssue] | None = Field(
        default=None, description="The invalid parts of the request (validation errors only)."
    )


# -- requests -----------------------------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


PATH_RULES = (
    "A topic path such as /projects/embornal: it starts with '/'; each segment starts with "
    "a letter or digit and holds letters, digits, '.', '_' and '-'; it folds to lowercase."
)
PathIn = Annotated[
    str, Field(min_length=1, max_length=MAX_PATH_LENGTH, pattern="^/", description=PATH_RULES)
]
TagsIn = Annotated[
    list[Annotated[str, Field(pattern="=")]]
    | dict[str, Annotated[str, Field(min_length=1)]]
    | None,
    Field(
        description='Tags as ["k=v", ...] or {"k": "v"}; the memory writes the owner tag itself.'
    ),
]
RFC3339 = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})$"
)
TimeIn = Annotated[
    Annotated[str, Field(pattern=RFC3339, json_schema_extra={"format": "date-time"})] | None,
    Field(description="When the fact was true (imports); default now. RFC 3339."),
]


class StoreIn(_In):
    """A fact to store."""

    path: PathIn
    content: str = Field(
        min_length=1,
        max_length=MAX_CONTENT_BYTES,
        description=f"One small statement (at most {MAX_CONTENT_BYTES:,} bytes of UTF-8).",
    )
    tags: TagsIn = None
    at: TimeIn = None
    reason: str | None = Field(
        None, max_length=MAX_REASON_LENGTH, description="Why it is stored; kept in the history."
    )


class SupersedeIn(_In):
    """The correcting fact: same path as the old one; tags default to the old fact's."""

    content: str = Field(
        min_length=1,
        max_length=MAX_CONTENT_BYTES,
        description=f"The corrected statement (at most {MAX_CONTENT_BYTES:,} bytes of UTF-8).",
    )
    tags: TagsIn = None
    at: TimeIn = None
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class ReasonIn(_In):
    reason: str = Field(
        min_length=1, max_length=MAX_REASON_LENGTH, description="Why; kept in the history."
    )


Limit = Annotated[
    int | None,
    Field(ge=1, le=MAX_LIMIT, description=f"How many at most (1-{MAX_LIMIT})."),
]


class LsQuery(_In):
    path: PathIn = "/"


class TreeQuery(_In):
    path: PathIn = "/"
    dirs_only: bool = Field(False, description="Keep only the paths that hold paths.")


class CatQuery(_In):
    path: PathIn
    limit: Limit = None
    order_by: Literal["date", "signal"] = Field(
        "date", description="date: oldest first; signal: strongest first."
    )
    recall: bool = Field(False, description="Count the read as a recall (reinforces).")


class RecallQuery(_In):
    q: str | None = Field(None, description="Keywords; leave out for the strongest facts.")
    limit: Limit = None
    mode: Literal["auto", "keyword", "vector", "hybrid"] = Field(
        "auto", description="auto: hybrid when the server has a model, else keyword."
    )
    reinforce: bool = Field(True, description="false: a read-only recall (no strength lift).")
    under: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_PATH_LENGTH,
            pattern="^/",
            description="Only facts at or below this path.",
        ),
    ] = None


class TagsQuery(_In):
    fact: str = Field(
        pattern=ID_PATTERN, description="A fact id or a unique prefix of one (0-9, A-Z)."
    )
