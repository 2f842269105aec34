"""A narrative's claim dependencies (docs/model.md, Narratives; decision 0098), pure: the
issue codes, what a claim must be for a narrative to rest on it, and the issues its stream
raised after the version a narrative's approval checked.

Rules (quoted by the tests):

* a narrative rests on **adopted judgments**: a claim it names must be adopted with its
  review current (what ``recall_claims`` returns by default) — a proposed claim is not a
  judgment yet, a withdrawn or superseded one is no longer the account;
* "``revise_claim()`` or ``withdraw_claim()`` changes the adopted account": a revision,
  a replacement, a withdrawal or an evidence change after the checked version makes the
  narrative unusable, as a forgotten memory does, until ``review_narrative`` (when the
  claim is adopted and current again) or a replacement version;
* an issue that has cleared (the claim adopted again after an evidence change) still
  withholds the version: only a review approves it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.claims.ledger import ClaimState, ClaimStatus, evolve
from embornal.domain.events import Event
from embornal.domain.narratives.accounts import MISSING, Issue

__all__ = [
    "CLAIM_CODES",
    "CLAIM_NOT_ADOPTED",
    "CLAIM_REVIEW_REQUIRED",
    "CLAIM_REVISED",
    "CLAIM_SUPERSEDED",
    "CLAIM_WITHDRAWN",
    "claim_issues",
    "current_claim_issue",
    "is_claim_id",
]

CLAIM_WITHDRAWN = "claim_withdrawn"
CLAIM_SUPERSEDED = "claim_superseded"
CLAIM_REVISED = "claim_revised"
CLAIM_REVIEW_REQUIRED = "claim_review_required"
CLAIM_NOT_ADOPTED = "claim_not_adopted"
CLAIM_CODES = (
    CLAIM_WITHDRAWN,
    CLAIM_SUPERSEDED,
    CLAIM_REVISED,
    CLAIM_REVIEW_REQUIRED,
    CLAIM_NOT_ADOPTED,
)

_BY_TYPE = {
    "ClaimWithdrawn": CLAIM_WITHDRAWN,
    "ClaimSuperseded": CLAIM_SUPERSEDED,
    "ClaimRevised": CLAIM_REVISED,
    "ClaimEvidenceAdded": CLAIM_REVIEW_REQUIRED,
    "ClaimEvidenceRetracted": CLAIM_REVIEW_REQUIRED,
}


def is_claim_id(ref: str) -> bool:
    """A claim id (``C`` and a ULID: 27 characters) as opposed to a fact's (a ULID)."""
    return len(ref) == 27 and ref.startswith("C")


def current_claim_issue(state: ClaimState | None, *, eligible: bool) -> str | None:
    """What stands against resting a narrative on the claim now (None: nothing).
    ``eligible``: the claim is adopted, its review current and its material live (the
    service's reading of it)."""
    if state is None:
        return MISSING
    if state.status is ClaimStatus.WITHDRAWN:
        return CLAIM_WITHDRAWN
    if state.status is ClaimStatus.SUPERSEDED:
        return CLAIM_SUPERSEDED
    if state.status is ClaimStatus.PROPOSED:
        return CLAIM_NOT_ADOPTED
    return None if eligible else CLAIM_REVIEW_REQUIRED


def claim_issues(
    claim_id: str, events: Sequence[Event], checked: int, *, eligible: bool
) -> list[Issue]:
    """The issues of the claim dependency ``claim_id`` (its stream ``events``) for a
    version approved at stream version ``checked``: each change of the judgment after it
    (``live`` while it holds now), and what stands against the claim now."""
    state: ClaimState | None = None
    found: dict[str, Issue] = {}
    for event in events:
        state = evolve(state, event)
        code = _BY_TYPE.get(event.type)
        if event.version > checked and code is not None:
            found.setdefault(code, Issue(claim_id, code, False, event.recorded_at))
    now = current_claim_issue(state, eligible=eligible)
    if now is not None and now not in found:
        found[now] = Issue(claim_id, now, True, None)
    return [Issue(i.ref, i.issue, i.issue == now, i.at) for i in found.values()]
