"""What the reads of one fact for its page return (:mod:`.fact_reads`): its place in the
history protocol with the claims and narratives on it, and its access log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from embornal.service.claims.results import ClaimRecord
from embornal.service.history.results import ProvenanceReport
from embornal.service.narratives.results import Narrative

__all__ = ["AccessEntry", "FactAccess", "FactProtocol"]


@dataclass(frozen=True)
class FactProtocol:
    """A fact's place in the history protocol, each part read as the subject: the stage
    and its context (the protocol state folded into the fact's state), its provenance
    (None: no report, such as for a forgotten fact), the active canon scopes, the claims
    that cite it or are about it, and the narratives whose current version rests on it
    (their text withheld when not usable, as the listing does)."""

    stage: str
    tier: str
    sensitive: bool
    pinned: bool
    canon: tuple[str, ...]
    frame: str | None
    session: str | None
    event_at: datetime | None
    captured_at: datetime | None
    reviewed_at: datetime | None
    provenance: ProvenanceReport | None
    claims: tuple[ClaimRecord, ...]
    narratives: tuple[Narrative, ...]


@dataclass(frozen=True)
class AccessEntry:
    """One access to a fact: a recall that returned it (``read``: who recalled it, as what,
    when, and how many facts that recall returned; ``action`` ``recall``) or an event of
    its own stream (a change: its audit action, such as ``pin``, and its reason)."""

    at: datetime
    actor: str
    actor_kind: str
    read: bool
    action: str
    position: int
    reason: str | None = None
    facts: int = 1


@dataclass(frozen=True)
class FactAccess:
    """A fact's access log as the subject may see it (decision 0160), newest first: the
    recalls that returned it (the subject's own; everyone's for its owner or a subject
    who reads everything) and its changes. ``others_hidden``: recalls by other subjects
    left out; ``more``: older recalls beyond the read's limit."""

    fact_id: str
    entries: tuple[AccessEntry, ...]
    others_hidden: int = 0
    more: bool = False
