"""The REST models of the history protocol (decision 0064): remember, promote,
corroborate, provenance, review, flag-sensitive and the protocol's lists."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from embornal.domain.bounds import MAX_CAPTURE_CONTEXT, MAX_ORIGIN_ID
from embornal.domain.facts.fact import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.schemas import FactOut, Limit, PathIn, Time, _In, _Out

__all__ = [
    "CorroborateIn",
    "DueMemoriesOut",
    "DueMemoryOut",
    "DueQuery",
    "ForgottenListOut",
    "ForgottenMemoryOut",
    "ForgottenQuery",
    "MemoryStatusOut",
    "ProvenanceOut",
    "RememberIn",
    "ReviewIn",
]

_Label = Annotated[str, Field(min_length=1, max_length=1000)]
Days = Annotated[int | None, Field(ge=0, le=36_500, description="An age in days.")]


class MemoryStatusOut(_Out):
    """A memory and where it stands in the history protocol."""

    fact: FactOut
    stage: str = Field(description="working or consolidated.")
    tier: str = Field(description="archive, testimony or interpretation.")
    sensitive: bool = Field(description="Security-sensitive: pinned only with corroboration.")
    screened: list[str] = Field(description="The known injection shapes screening matched.")
    captured_at: Time | None
    reviewed_at: Time | None
    session: str | None
    warnings: list[str]
    frame: str | None = Field(
        description="Its frame: a label to filter by, not an access boundary."
    )
    canon: list[str] = Field(description="The canon scopes it is in.")
    event_at: Time | None = Field(
        description="When the event it tells of happened (valid time; null: unknown)."
    )
    session_position: int | None = Field(description="Its place in the session.")
    origin: str | None = Field(None, description="The source given at capture; null: unknown.")
    unpinned: bool = Field(
        False, description="This call lifted its anchor (flag-sensitive, unsupported by sources)."
    )
    material_type: str = Field(
        "unspecified", description="document, utterance, observation, summary or unspecified."
    )
    origin_id: str | None = Field(None, description="The original it repeats; null: unknown.")
    capture_context: str | None = Field(None, description="How it was collected, as declared.")


class ProvenanceOut(_Out):
    """The recorded sources of a memory and the corroboration gate."""

    fact_id: str
    tier: str
    sensitive: bool
    origin: str | None = Field(description="The source given at capture; null: unknown.")
    sources: list[str] = Field(description="The distinct corroborating labels.")
    recorded: int = Field(description="How many corroborations were recorded (repeats too).")
    independent: list[str] = Field(description="The origin groups that count.")
    needed: int = Field(description="1 for a known origin, 2 for an unknown one.")
    satisfied: bool
    explanation: str
    warning: str | None


class DueMemoryOut(_Out):
    fact: FactOut
    tier: str
    sensitive: bool
    since: Time = Field(description="Its capture, or its last review.")


class DueMemoriesOut(_Out):
    memories: list[DueMemoryOut]


class ForgottenMemoryOut(_Out):
    fact: FactOut
    forgotten_at: Time
    reason: str | None
    actor: str


class ForgottenListOut(_Out):
    memories: list[ForgottenMemoryOut]


_Material = Literal["unspecified", "document", "utterance", "observation", "summary"]


class RememberIn(_In):
    content: str = Field(min_length=1, max_length=MAX_CONTENT_BYTES)
    source: str | None = Field(None, max_length=1000)
    tier: str | None = Field(None, max_length=32, description="archive or interpretation.")
    path: PathIn | None = None
    security_sensitive: bool = Field(False, strict=True)
    session: str | None = Field(None, max_length=200)
    frame: str | None = Field(None, max_length=200, description="A label to filter by.")
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH)
    event_at: str | None = Field(
        None, max_length=64, description="When the event it tells of happened (ISO-8601)."
    )
    session_position: int | None = Field(None, ge=0, le=2**53, strict=True)
    material_type: _Material | None = None
    origin_id: str | None = Field(None, max_length=MAX_ORIGIN_ID)
    capture_context: str | None = Field(None, max_length=MAX_CAPTURE_CONTEXT)


class CorroborateIn(_In):
    source: _Label
    common_origin: str | None = Field(None, max_length=1000)
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH)


class ReviewIn(_In):
    note: str = Field(min_length=1, max_length=MAX_REASON_LENGTH)


class DueQuery(_In):
    days: Days = None
    limit: Limit = None


class ForgottenQuery(_In):
    limit: Limit = None
