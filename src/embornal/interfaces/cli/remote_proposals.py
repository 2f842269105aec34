"""The proposal and retention calls of :class:`~embornal.interfaces.cli.remote.RemoteMemory`:
each one catalogue operation over the REST API (decisions 0055–0057)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from embornal.service.proposal_results import (
    Proposal,
    ProposalSummary,
    PruneResult,
    RetentionScore,
)

__all__ = ["ProposalCalls"]


def _given(scope: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in scope.items() if k != "self"}


class ProposalCalls:
    """The part of the remote client that reviews proposals and scores retention."""

    def _op(self, name: str, /, **given: Any) -> Any:  # RemoteMemory's
        raise NotImplementedError

    def propose(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        title: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal:
        return cast(Proposal, self._op("propose", **_given(locals())))

    def ingest(
        self,
        text: str,
        *,
        name: str | None = None,
        extractor: str = "rules",
        path: str | None = None,
        source: str | None = None,
        reason: str | None = None,
    ) -> Proposal:
        return cast(Proposal, self._op("ingest", **_given(locals())))

    def proposals(
        self, *, status: str | None = None, limit: int | None = None
    ) -> list[ProposalSummary]:
        return cast(list[ProposalSummary], self._op("proposals", **_given(locals())))

    def proposal(self, proposal_id: str) -> Proposal:
        return cast(Proposal, self._op("proposal", proposal_id=proposal_id))

    def approve(
        self,
        proposal_id: str,
        *,
        items: Sequence[str] | None = None,
        reason: str | None = None,
        version: int | None = None,
    ) -> Proposal:
        return cast(Proposal, self._op("approve", **_given(locals())))

    def reject(self, proposal_id: str, *, reason: str) -> Proposal:
        return cast(Proposal, self._op("reject", proposal_id=proposal_id, reason=reason))

    def edit_proposal(
        self,
        proposal_id: str,
        *,
        drop: Sequence[str] | None = None,
        add: Sequence[Mapping[str, Any]] | None = None,
        reason: str | None = None,
    ) -> Proposal:
        return cast(Proposal, self._op("edit_proposal", **_given(locals())))

    def retention(self, *, lowest: int | None = None) -> list[RetentionScore]:
        return cast(list[RetentionScore], self._op("retention", lowest=lowest))

    def prune(
        self, *, threshold: float | None = None, limit: int | None = None, reason: str | None = None
    ) -> PruneResult:
        return cast(PruneResult, self._op("prune", **_given(locals())))
