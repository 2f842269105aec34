"""The JSON bodies of the REST API as pydantic models: they validate the requests and describe
the answers (OpenAPI), which :mod:`embornal.interfaces.wire` makes (times ISO-8601 UTC with ``Z``,
tags ``"k=v"``, a fact with its ``state``); a test checks every wire shape validates against its
model. The spine's writes are in ``spine_schemas``, importance's in ``importance_schemas``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from embornal.domain.facts.fact import Fact
from embornal.domain.recall.ranking import ScoreParts
from embornal.interfaces.catalog import by_name
from embornal.interfaces.catalog_inputs import FACT_ID_PATTERN
from embornal.interfaces.http.derived import (
    EvidenceIn,
    Time,
    answer_model,
    list_answer,
    request_model,
    written,
)
from embornal.interfaces.http.derived import Out as _Out
from embornal.service.facts.details import FactDetail, TreeNode
from embornal.service.results import RecallHit

__all__ = [
    "ID_PATTERN",
    "CatOut",
    "EffectiveTagOut",
    "EventOut",
    "EvidenceIn",
    "FactDetailOut",
    "FactOut",
    "FactViewOut",
    "FactsOut",
    "HealthOut",
    "HistoryOut",
    "KindFieldOut",
    "KindOut",
    "KindsOut",
    "LsOut",
    "PathEntryOut",
    "Problem",
    "ProblemIssue",
    "ReasonIn",
    "RecallHitOut",
    "RecallOut",
    "ScorePartsOut",
    "SourceOut",
    "TagsOut",
    "TreeNodeOut",
    "UndoOut",
    "WhoAmIOut",
]

ID_PATTERN = FACT_ID_PATTERN
FactState = Literal["active", "superseded", "forgotten", "purged"]


# -- responses --------------------------------------------------------------------------------


class WhoAmIOut(_Out):
    """Who the token stands for, and the actor kind its writes are recorded with."""

    subject: str
    actor_kind: str


class HealthOut(_Out):
    status: Literal["ok"]
    version: str


@written(Fact)
class FactOut(_Out):
    """One fact as the memory holds it: stored signals, never the strength."""

    id: str = Field(description="ULID of the fact (26 characters).")
    path: str
    content: str
    kind: str = Field(description="The fact's kind (see GET /api/v1/kinds); never changes.")
    attributes: dict[str, Any] = Field(
        description="The kind's attributes as stored (canonical JSON): vocabulary values as "
        "text, dates YYYY-MM-DD, times ISO-8601 UTC, lists. A plain fact whose statement is "
        "its content has none."
    )
    owner: str = Field(description="The subject that wrote the fact.")
    created_at: Time
    last_recall_at: Time | None
    recall_count: int
    stability_days: float
    confidence: float | None = Field(
        description="How sure the memory is that the fact is true, 0..1: the creator's prior "
        "or the given value, folded with every confirm, contradiction and piece of evidence."
    )
    last_confirmed_at: Time | None
    visibility: str = Field(
        description="Who may see it: shared, private (its owner only, never an assistant) or "
        "restricted:a,b (its owner and the subjects or roles listed)."
    )
    pinned: bool = Field(description="Pinned: recall lifts it.")
    user_weight: float | None = Field(
        description="The explicit user weight, 0..1 (0.5 neutral); null: none."
    )
    lifetime: str = Field(
        description="permanent, standard, ephemeral or until:YYYY-MM-DD (docs/model.md, Lifecycle)."
    )
    expires_at: Time | None = Field(
        description="When an until or ephemeral lifetime runs out: the fact then leaves recall."
    )
    supersedes_id: str | None
    superseded_by: str | None
    deleted_at: Time | None
    purged_at: Time | None
    tags: list[str] = Field(description="The fact's own tags as k=v (the owner tag included).")
    state: FactState


class FactViewOut(_Out):
    """A fact with its strength at the moment it was read."""

    fact: FactOut
    strength: float


@written(ScoreParts)
class ScorePartsOut(_Out):
    """Every component of one hit's score (the recall method may add more)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    total: float
    method: str
    strength: float
    keyword: float | None = Field(
        None,
        description="Rescaled BM25, 1.0 best of the candidates (hybrid: share of the best's).",
    )
    bm25: float | None = Field(
        None,
        description="Raw FTS5 bm25 (lower is better); null "
        "unless the caller reads the whole memory.",
    )
    keyword_rank: int | None = Field(None, description="1-based rank in the keyword list.")
    vector: float | None = Field(None, description="Cosine similarity.")
    vector_scaled: float | None = Field(None, description="The cosine as hybrid fusion took it.")
    vector_rank: int | None = Field(None, description="1-based rank in the vector list.")
    neighbour: float | None = Field(None, description="Gain from matching neighbours on its path.")
    temporal: float | None = Field(None, description="What a time the query names added.")
    time_window: str | None = Field(None, description="The times the query names, read.")
    diversity: float | None = Field(None, description="What better hits on its path took.")
    path: float | None = Field(None, description="Gain from the best other hit on its path.")
    entity: float | None = Field(None, description="What the query's names it holds added.")
    entities: list[str] = Field(default_factory=list, description="The query's names, read.")
    rerank: float | None = Field(None, description="The cross-encoder's score (with rerank).")
    rerank_before: int | None = Field(None, description="Its 1-based place before reranking.")
    strength_weight: float | None = None
    c: float | None = Field(None, description="The fact's stored confidence.")
    c_eff: float | None = Field(None, description="Its confidence decayed to now.")
    stale: bool = Field(False, description="c_eff is below the kind's staleness threshold.")
    pinned: bool = False
    user_weight: float | None = None
    spine: float = Field(
        0.0, description="What confidence, staleness, the pin and the weight added to the total."
    )
    matched_terms: list[str] = Field(default_factory=list)


RecallHitOut = answer_model(RecallHit)


RecallOut = list_answer("RecallOut", "hits", RecallHitOut, doc="Hits, best first.")


class PathEntryOut(_Out):
    path: str
    fact_count: int = Field(description="Visible live facts on this path itself.")
    child_count: int = Field(description="Visible paths one level below.")


class LsOut(_Out):
    path: str
    entries: list[PathEntryOut]


TreeNodeOut = answer_model(TreeNode)


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


class EvidenceOut(_Out):
    type: str = Field(description="quote, uri, conversation, document or observation.")
    value: str
    note: str | None


class SourceOut(_Out):
    subject: str = Field(description="The subject that stored the fact.")
    actor_kind: str = Field(description="person, assistant, system or import.")
    label: str | None = Field(description="The client or session label given at store.")


@written(FactDetail)
class FactDetailOut(_Out):
    """One fact whole: state, strength, tags with their sources, links and events."""

    fact: FactOut
    strength: float
    effective_tags: list[EffectiveTagOut]
    links: list[str]
    events: list[EventOut]
    confidence: float | None
    c_eff: float | None = Field(
        description="The confidence decayed by the kind's half-life since the last "
        "confirmation (or creation), at the moment of reading; never stored."
    )
    stale: bool = Field(description="c_eff is below the kind's staleness threshold.")
    last_confirmed_at: Time | None
    evidence: list[EvidenceOut] = Field(description="What supports the fact, oldest first.")
    source: SourceOut | None = Field(description="Who put the fact here.")
    pinned: bool
    user_weight: float | None
    lifetime: str
    expires_at: Time | None
    expired: bool = Field(description="Its lifetime has run out: it has left recall.")
    expired_because: str | None = Field(
        description="Why it left recall, e.g. 'lifetime until:2026-05-01 ran out at …'."
    )
    as_of: Time | None = Field(
        None, description="The past time the whole answer stands for (`at=`); null: now."
    )


class HistoryOut(_Out):
    target: str = Field(description="The fact id (or prefix) as given.")
    events: list[EventOut] = Field(description="Oldest first, the supersession chain included.")


class UndoOut(_Out):
    """The events an undo appended, each with ``payload.undoes`` = the undone position."""

    undone: int = Field(description="The log position of the event undone.")
    events: list[EventOut] = Field(description="The compensating events, in log order.")


class FactsOut(_Out):
    """The facts of one kind that match, oldest first."""

    kind: str
    facts: list[FactOut]


class KindFieldOut(_Out):
    """One attribute of a kind."""

    name: str
    type: Literal["text", "number", "bool", "text_list", "date", "datetime", "vocabulary"]
    required: bool
    values: list[str] | None = Field(None, description="The allowed values (a vocabulary).")
    minimum: float | None = None
    maximum: float | None = None
    format: str | None = Field(None, description="Text: plain, fact_id or uri.")
    multiline: bool | None = None
    max_length: int | None = None


class KindOut(_Out):
    """One kind's schema."""

    kind: str
    version: int = Field(description="The kind's latest schema version.")
    summary: str
    fields: list[KindFieldOut]
    required: list[str]
    rules: list[str] = Field(description="Cross-field rules, in words.")


class KindsOut(_Out):
    kinds: list[KindOut]


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


ReasonIn = request_model(by_name("forget"), "ReasonIn")
"""A required reason alone (forget, restore, undo, promote, flag_sensitive, reject): made
from the catalogue's inputs (decision 0162)."""
