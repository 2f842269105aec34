"""What the conflict use cases return (decision 0059): a frozen dataclass, never a dict."""

from __future__ import annotations

from datetime import datetime

from embornal.domain.facts.fact import Fact
from embornal.domain.values import value

__all__ = ["ConflictRecord"]


@value
class ConflictRecord:
    """One conflict as a subject who may read every member sees it: the members as the
    projection holds them now (forgotten ones too), side by side, with what found the
    conflict and, once resolved, who decided what and why."""

    id: str
    conflict_class: str
    status: str
    members: tuple[Fact, ...]
    findings: tuple[str, ...]
    score: float
    detected_by: str
    suggested_keep: str | None
    opened_at: datetime | None
    opened_by: str
    outcome: str | None = None
    kept_id: str | None = None
    archived: tuple[str, ...] = ()
    resolved_at: datetime | None = None
    resolved_by: str | None = None
    reason: str | None = None
    opened_reason: str | None = None
