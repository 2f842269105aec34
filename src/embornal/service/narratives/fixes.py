"""What a narrative's source issue says and the call that resolves it: the refusals of
``narrate`` and ``review_narrative``, and the hint of a review notice (as memory-as-history
words it: "Inspect narrative_review, resolve source issues, then call
review_narrative(id, note) or submit a replacement with valid links")."""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.narratives.accounts import (
    FORGOTTEN,
    INSUFFICIENT,
    LINK_MISSING,
    MISSING,
    STALE_INTERPRETATION,
)
from embornal.domain.narratives.claims import is_claim_id
from embornal.errors import EmbornalError, NotFound, ProtocolViolation
from embornal.service.narratives.results import SourceIssue

__all__ = ["fix_hint", "refusal"]

_WHAT = {
    MISSING: "is missing (purged)",
    FORGOTTEN: "is forgotten",
    STALE_INTERPRETATION: "is an interpretation overdue for review",
    INSUFFICIENT: "is security-sensitive without independent corroboration",
    LINK_MISSING: "is a link that was taken off",
}


def _fix(ref: str, code: str) -> str:
    if is_claim_id(ref):
        from embornal.service.narratives.claims import claim_fix

        return claim_fix(ref, code)
    if code == FORGOTTEN:
        return f'restore(memory_id="{ref}", reason="...")'
    if code == STALE_INTERPRETATION:
        return f'review(memory_id="{ref}", note="...")'
    if code == INSUFFICIENT:
        return (
            f'corroborate(memory_id="{ref}", source="...") with each actual independent '
            "source (never invent a label)"
        )
    return "narrate(content, reason, ...) without it"


def refusal(fact_id: str, code: str, sensitive: bool) -> EmbornalError:
    """The refusal of a dependency with a source issue now."""
    if code == MISSING:
        return NotFound(f"no fact with id {fact_id}")
    what = _WHAT[code]
    if code == INSUFFICIENT and sensitive:
        what = "is not supported by independent corroboration (a sensitive synthesis needs it)"
    return ProtocolViolation(
        f"memory {fact_id} {what}: a narrative cannot depend on it",
        hint=f"Call {_fix(fact_id, code)} first, or narrate(content, reason, ...) without it.",
    )


def fix_hint(narrative_id: str, issues: Sequence[SourceIssue]) -> str:
    """What to do about an unusable version: resolve each live issue, then review."""
    live = [i for i in issues if i.live]
    steps = [f"Call {_fix(i.ref, i.issue)}" for i in live[:3]]
    review = (
        f'call review_narrative(narrative_id="{narrative_id}", note="...") after comparing the '
        "account with its sources, or narrate(content, reason, ...) a replacement"
    )
    if not steps:
        return "Its source issues have cleared, but that does not approve it: " + review + "."
    return "; ".join(steps) + "; then " + review + "."
