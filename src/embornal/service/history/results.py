"""What the history protocol's use cases return (decisions 0064–0066)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from embornal.domain.facts.fact import Fact

__all__ = ["DueMemory", "ForgottenMemory", "MemoryStatus", "ProvenanceReport"]


@dataclass(frozen=True)
class MemoryStatus:
    """A memory and where it stands in the protocol: ``stage`` working or consolidated,
    ``tier`` archive, testimony or interpretation, whether it is security-sensitive (and
    the injection shapes the screen matched), its capture and last review, and warnings
    (an anchor past the soft limit, testimony its sources do not support); its ``frame``
    (None: none) and the ``canon`` scopes it is in (decision 0078); its history context:
    ``session``, ``event_at`` (when the event it tells of happened; None: unknown) and
    ``session_position`` (decision 0088); ``origin``: the source given at capture (None:
    unknown); ``unpinned``: the call that answered it lifted its anchor (a flag of
    sensitivity the corroboration gate does not support); what the capture declared of its
    material: ``material_type``, ``origin_id``, ``capture_context`` (decision 0156)."""

    fact: Fact
    stage: str
    tier: str
    sensitive: bool
    screened: tuple[str, ...] = ()
    captured_at: datetime | None = None
    reviewed_at: datetime | None = None
    session: str | None = None
    warnings: tuple[str, ...] = ()
    frame: str | None = None
    canon: tuple[str, ...] = ()
    event_at: datetime | None = None
    session_position: int | None = None
    origin: str | None = None
    unpinned: bool = False
    material_type: str = "unspecified"
    origin_id: str | None = None
    capture_context: str | None = None


@dataclass(frozen=True)
class ProvenanceReport:
    """What the recorded sources of a memory amount to (``provenance(id)``): its origin
    (the source given at capture; None: unknown), the distinct corroborating labels, how
    many corroborations were recorded (repeats too), the origin groups that count, how
    many are needed (1 for a known origin, 2 for an unknown one) and whether the gate is
    met; a warning on testimony that lacks support."""

    fact_id: str
    tier: str
    sensitive: bool
    origin: str | None
    sources: tuple[str, ...]
    recorded: int
    independent: tuple[str, ...]
    needed: int
    satisfied: bool
    explanation: str
    warning: str | None = None


@dataclass(frozen=True)
class DueMemory:
    """A memory on a protocol queue: working material to consolidate, or an
    interpretation to review; ``since`` is its capture (or last review)."""

    fact: Fact
    tier: str
    sensitive: bool
    since: datetime


@dataclass(frozen=True)
class ForgottenMemory:
    """A forgotten memory, when, by whom and why (``list_forgotten``)."""

    fact: Fact
    forgotten_at: datetime
    reason: str | None
    actor: str
