"""The REST models of the spine's and visibility's writes: confirm, contradict, evidence,
visibility (the store's own fields are in :mod:`embornal.interfaces.http.schemas`)."""

from __future__ import annotations

from pydantic import Field

from embornal.domain.facts import MAX_REASON_LENGTH
from embornal.domain.spine import MAX_EVIDENCE_NOTE
from embornal.interfaces.http.schemas import (
    ID_PATTERN,
    EvidenceIn,
    EvidenceText,
    VisibilityIn,
    _In,
)

__all__ = ["ConfirmIn", "ContradictIn", "EvidenceAddIn", "VisibilityChangeIn"]


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


class VisibilityChangeIn(_In):
    """Who may see the fact from now on (its owner only may change it)."""

    visibility: VisibilityIn
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")
