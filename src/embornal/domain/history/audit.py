"""The audit log's names for decisions (``audit_log``; decisions 0084, 0099): each
event of a memory's, a claim's or a narrative account's stream as the action a person
would name it (the claims' and narratives' as memory-as-history's tools). Pure.

The log is the audit: :func:`action_of` only names what an event did (``pin`` and
``unpin`` are one event type, told apart by its payload); an event type without a name
here is named from its type (``MemoryCanonized`` → ``canonized``), so a new decision is
in the audit the day its event exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["UNPIN_BY_SENSITIVITY", "action_of"]

_NAMES = {
    "FactStored": "store",
    "FactAttributesUpdated": "update",
    "FactForgotten": "forget",
    "FactRestored": "restore",
    "FactPurged": "purge",
    "FactConfirmed": "confirm",
    "FactContradicted": "contradict",
    "FactEvidenceAdded": "add_evidence",
    "FactConfidenceReset": "confidence_reset",
    "FactVisibilityChanged": "visibility",
    "FactLifetimeChanged": "lifetime",
    "FactLinked": "link",
    "FactUnlinked": "unlink",
    "FactMerged": "merge",
    "MemoryCaptured": "remember",
    "MemoryPromoted": "promote",
    "MemoryCorroborated": "corroborate",
    "MemoryTierChanged": "corroborate_upgrade",  # archive to testimony, by a corroboration
    "MemoryReviewed": "review",
    "MemoryFlaggedSensitive": "flag_sensitive",
    "MemoryUnpinNoop": "unpin_noop",
    "MemoryCanonized": "canonize",
    "MemoryFramed": "set_frame",
    "MemoryContextSet": "set_history_context",
    # the claims ledger and the narratives (decision 0099): memory-as-history's tool names
    "ClaimCreated": "create_claim",
    "ClaimEvidenceAdded": "add_evidence",
    "ClaimEvidenceRetracted": "retract_evidence",
    "ClaimAdopted": "adopt_claim",
    "ClaimRevised": "revise_claim",
    "ClaimSuperseded": "revise_claim",  # the replaced claim's side of a replacement
    "ClaimWithdrawn": "withdraw_claim",
    "NarrativeVersioned": "narrate",
    "NarrativeReviewed": "review_narrative",
    "ConflictResolved": "resolve_conflict",
}
#: A canon membership's end, by its cause (memory-as-history logs ``decanonize_by_sensitivity``).
_LEFT_CANON = {"end_scope": "end_scope", "sensitivity": "decanonize_by_sensitivity"}
_PREFIX = re.compile(r"^(Fact|Memory)")
_WORD = re.compile(r"(?<!^)(?=[A-Z])")


#: The reason ``flag_sensitive`` gives the anchor it lifts (memory-as-history
#: logs ``unpin_by_sensitivity``).
UNPIN_BY_SENSITIVITY = "unpin by sensitivity: "


def action_of(event_type: str, payload: Mapping[str, Any], reason: str | None = None) -> str:
    """What the event of ``event_type`` with ``payload`` (and ``reason``) did, as the audit
    names it."""
    if event_type == "FactImportanceAdjusted":
        pinned, before = bool(payload.get("pinned")), bool(payload.get("previous_pinned"))
        if pinned != before:
            if not pinned and (reason or "").startswith(UNPIN_BY_SENSITIVITY):
                return "unpin_by_sensitivity"
            return "pin" if pinned else "unpin"
        return "weight"
    if event_type == "FactStored" and payload.get("supersedes_id"):
        return "supersede"
    if event_type == "ConflictOpened":  # declared by a caller, or found by the rules
        return "mark_conflict" if payload.get("conflict_class") == "declared" else "open_conflict"
    if event_type == "MemoryRefused":  # pin_denied, canonize_denied, narrate_denied
        return f"{payload.get('operation')}_denied"
    if event_type == "MemoryDecanonized":
        return _LEFT_CANON.get(str(payload.get("cause")), "decanonize")
    name = _NAMES.get(event_type)
    if name is not None:
        return name
    return _WORD.sub("_", _PREFIX.sub("", event_type) or event_type).lower()
