"""The REST models of the history protocol (decision 0064): remember, promote,
corroborate, provenance, review, flag-sensitive and the protocol's lists."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from embornal.domain.bounds import MAX_CAPTURE_CONTEXT, MAX_ORIGIN_ID
from embornal.domain.facts.fact import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.interfaces.http.derived import answer_model, list_answer
from embornal.interfaces.http.schemas import PathIn, _In
from embornal.service.history.results import (
    DueMemory,
    ForgottenMemory,
    MemoryStatus,
    ProvenanceReport,
)

__all__ = [
    "DueMemoriesOut",
    "DueMemoryOut",
    "ForgottenListOut",
    "ForgottenMemoryOut",
    "MemoryStatusOut",
    "ProvenanceOut",
    "RememberIn",
]


MemoryStatusOut = answer_model(
    MemoryStatus,
    doc="A memory and where it stands in the history protocol.",
    stage="working or consolidated.",
    tier="archive, testimony or interpretation.",
    sensitive="Security-sensitive: pinned only with corroboration.",
    screened="The known injection shapes screening matched.",
    frame="Its frame: a label to filter by, not an access boundary.",
    canon="The canon scopes it is in.",
    event_at="When the event it tells of happened (valid time; null: unknown).",
    session_position="Its place in the session.",
    origin="The source given at capture; null: unknown.",
    unpinned="This call lifted its anchor (flag-sensitive, unsupported by sources).",
    material_type="document, utterance, observation, summary or unspecified.",
    origin_id="The original it repeats; null: unknown.",
    capture_context="How it was collected, as declared.",
)


ProvenanceOut = answer_model(
    ProvenanceReport,
    "ProvenanceOut",
    doc="The recorded sources of a memory and the corroboration gate.",
    origin="The source given at capture; null: unknown.",
    sources="The distinct corroborating labels.",
    recorded="How many corroborations were recorded (repeats too).",
    independent="The origin groups that count.",
    needed="1 for a known origin, 2 for an unknown one.",
)


DueMemoryOut = answer_model(DueMemory, since="Its capture, or its last review.")


DueMemoriesOut = list_answer("DueMemoriesOut", "memories", DueMemoryOut)


ForgottenMemoryOut = answer_model(ForgottenMemory)


ForgottenListOut = list_answer("ForgottenListOut", "memories", ForgottenMemoryOut)


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
