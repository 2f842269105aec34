"""The REST models of the history protocol (decision 0064): remember, promote,
corroborate, provenance, review, flag-sensitive and the protocol's lists."""

from __future__ import annotations

from typing import Literal

from embornal.interfaces.http.derived import answer_model, list_answer
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
