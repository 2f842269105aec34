"""The history protocol's operations on the remote client (:class:`.remote.RemoteMemory`
mixes them in): each one catalogue operation, as the local ``Memory`` offers it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from datetime import datetime

    from embornal.service.protocol_results import (
        DueMemory,
        ForgottenMemory,
        MemoryStatus,
        ProvenanceReport,
    )

__all__ = ["RemoteHistory"]


def _given(scope: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in scope.items() if k != "self"}


class RemoteHistory:
    """Mixed into ``RemoteMemory``, which supplies ``_op``."""

    def _op(self, name: str, /, **given: Any) -> Any:  # pragma: no cover - RemoteMemory's
        raise NotImplementedError

    def remember(
        self,
        content: str,
        *,
        source: str | None = None,
        tier: str | None = None,
        path: str | None = None,
        security_sensitive: bool = False,
        session: str | None = None,
        frame: str | None = None,
        reason: str | None = None,
        event_at: datetime | str | None = None,
        session_position: int | None = None,
        material_type: str | None = None,
        origin_id: str | None = None,
        capture_context: str | None = None,
    ) -> MemoryStatus:
        return cast("MemoryStatus", self._op("remember", **_given(locals())))

    def promote(self, fact_id: str, *, reason: str) -> MemoryStatus:
        return cast("MemoryStatus", self._op("promote", **_given(locals())))

    def corroborate(
        self,
        fact_id: str,
        source: str,
        *,
        common_origin: str | None = None,
        reason: str | None = None,
    ) -> ProvenanceReport:
        return cast("ProvenanceReport", self._op("corroborate", **_given(locals())))

    def provenance(self, fact_id: str) -> ProvenanceReport:
        return cast("ProvenanceReport", self._op("provenance", fact_id=fact_id))

    def review(self, fact_id: str, *, note: str) -> MemoryStatus:
        return cast("MemoryStatus", self._op("review", **_given(locals())))

    def flag_sensitive(self, fact_id: str, *, reason: str) -> MemoryStatus:
        return cast("MemoryStatus", self._op("flag_sensitive", **_given(locals())))

    def due_for_consolidation(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]:
        return cast("list[DueMemory]", self._op("due_for_consolidation", **_given(locals())))

    def due_for_review(
        self, *, days: int | None = None, limit: int | None = None
    ) -> list[DueMemory]:
        return cast("list[DueMemory]", self._op("due_for_review", **_given(locals())))

    def list_forgotten(self, *, limit: int | None = None) -> list[ForgottenMemory]:
        return cast("list[ForgottenMemory]", self._op("list_forgotten", limit=limit))
