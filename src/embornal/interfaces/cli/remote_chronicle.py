"""The history protocol facade on the remote client: ``RemoteMemory.chronicle``, each
method one catalogue operation, as the local ``Memory.chronicle`` offers it (decision
0084). It holds the client's call of an operation, not the client (no mixin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embornal.service.chronicle_results import AuditEntry
    from embornal.service.narrative_results import Narrative, NarrativeView

__all__ = ["RemoteChronicle"]

Call = Callable[..., Any]
"""``RemoteMemory._op``: the operation's name, then the ``Memory`` arguments."""


class RemoteChronicle:
    """The chronicle of the memory behind ``embornal serve``."""

    def __init__(self, op: Call) -> None:
        self._op = op

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        return cast("list[AuditEntry]", self._op("audit_log", limit=limit))

    def narrate(
        self,
        content: str,
        *,
        reason: str,
        memory_ids: Sequence[str] | None = None,
        claim_ids: Sequence[str] | None = None,
        link_ids: Sequence[str] | None = None,
        scope: str | None = None,
        perspective: str | None = None,
        coverage: str | None = None,
        security_sensitive: bool = False,
    ) -> Narrative:
        return cast("Narrative", self._op(
            "narrate", content=content, reason=reason, memory_ids=memory_ids,
            claim_ids=claim_ids, link_ids=link_ids, scope=scope, perspective=perspective,
            coverage=coverage, security_sensitive=security_sensitive,
        ))  # fmt: skip

    def current_narrative(
        self, *, scope: str | None = None, perspective: str | None = None
    ) -> NarrativeView:
        return cast(
            "NarrativeView", self._op("current_narrative", scope=scope, perspective=perspective)
        )

    def review_narrative(self, narrative_id: str, *, note: str) -> Narrative:
        return cast("Narrative", self._op("review_narrative", narrative_id=narrative_id, note=note))

    def narrative_history(
        self, *, limit: int | None = None, scope: str | None = None
    ) -> list[Narrative]:
        return cast("list[Narrative]", self._op("narrative_history", limit=limit, scope=scope))

    def list_narratives(self, *, limit: int | None = None) -> list[Narrative]:
        return cast("list[Narrative]", self._op("list_narratives", limit=limit))
