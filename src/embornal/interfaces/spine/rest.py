"""The REST models of the spine's writes: confirm, contradict and evidence
(the store's own fields are in :mod:`embornal.interfaces.http.schemas`), and
the spine's route tables :data:`HTTP` and :data:`REQUESTS` (importance's models are in
:mod:`.importance_rest`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from embornal.domain.facts.fact import MAX_REASON_LENGTH
from embornal.domain.spine.justification import MAX_EVIDENCE_NOTE
from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import (
    ID_PATTERN,
    EvidenceIn,
    EvidenceText,
    UndoOut,
    _In,
)
from embornal.interfaces.spine.importance_rest import DueOut, PinOut
from embornal.interfaces.wire import to_wire

__all__ = [
    "BY_OUTPUT",
    "HTTP",
    "REQUESTS",
    "ConfirmIn",
    "ContradictIn",
    "EvidenceAddIn",
]


class ConfirmIn(_In):
    """Vouch for a fact, with evidence or not."""

    evidence: EvidenceText | EvidenceIn | None = None
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class ContradictIn(_In):
    """Dispute a fact: a reason is required."""

    by: str | None = Field(
        None,
        pattern=ID_PATTERN,
        description="The id (or a unique prefix) of the contradicting fact.",
    )
    evidence: EvidenceText | EvidenceIn | None = None
    reason: str = Field(
        min_length=1, max_length=MAX_REASON_LENGTH, description="Why; kept in the history."
    )


class EvidenceAddIn(_In):
    """One piece of evidence to append (never edited or removed)."""

    evidence: EvidenceText | EvidenceIn
    note: str | None = Field(
        None, max_length=MAX_EVIDENCE_NOTE, description="A short note on the evidence."
    )


HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[[Any, Any], Any]]] = {
    # name: (answer model, query or body model, or the name of the one made, envelope)
    "undo": (
        UndoOut,
        "ReasonIn",
        lambda c, r: {"undone": r[0].payload["undoes"], "events": to_wire(r)},
    ),
    "pin": (PinOut, "PinIn", lambda c, r: to_wire(r)),
}
"""The spine's routes: what HTTP adds to each catalogue record (decision 0177)."""

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "list[DueFact]": DueOut,
}

REQUESTS: dict[str, RequestModel] = {
    "confirm": ConfirmIn,
    "contradict": ContradictIn,
    "add_evidence": EvidenceAddIn,
    "visibility": "VisibilityChangeIn",
    "unpin": "PinIn",
    "set_weight": "WeightIn",
    "set_lifetime": "LifetimeIn",
    "due": "DueQuery",
}
