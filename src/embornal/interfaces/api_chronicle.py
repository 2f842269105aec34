"""``ChronicleAPI``: the history protocol facade both :class:`embornal.Memory`'s
``chronicle`` and the remote client's offer, as a Protocol (decision 0084).

``MemoryAPI.chronicle`` is typed with it, so the behaviour suite runs the protocol's
further operations (the audit, canon, narratives, claims …) locally and over REST alike.
Stdlib-only at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from embornal.service.chronicle_results import AuditEntry

__all__ = ["ChronicleAPI"]


@runtime_checkable
class ChronicleAPI(Protocol):
    """The audit, canon, frames, narratives, claims and timelines of seed 002."""

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]: ...


if TYPE_CHECKING:  # mypy checks that both sides offer the API
    from embornal.interfaces.cli.remote_chronicle import RemoteChronicle
    from embornal.service.chronicle import Chronicle

    def _both_offer_it(
        local: Chronicle, remote: RemoteChronicle
    ) -> tuple[ChronicleAPI, ChronicleAPI]:
        return local, remote
