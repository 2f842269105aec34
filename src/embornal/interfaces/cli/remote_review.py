"""The graph and conflict calls of :class:`~embornal.interfaces.cli.remote.RemoteMemory`:
each one catalogue operation over the REST API (decisions 0052-0054, 0059)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from embornal.domain.facts import Fact
from embornal.service.graph_results import DanglingLink, Link, LinkGraph

if TYPE_CHECKING:
    from embornal.service.conflict_record import ConflictRecord

__all__ = ["ReviewCalls"]


def _given(scope: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in scope.items() if k != "self"}


class ReviewCalls:
    """The part of the remote client that links, merges and reads the conflict queue."""

    def _op(self, name: str, /, **given: Any) -> Any:  # RemoteMemory's
        raise NotImplementedError

    def conflicts(
        self,
        *,
        status: str | None = "open",
        conflict_class: str | None = None,
        fact_id: str | None = None,
        limit: int | None = None,
    ) -> list[ConflictRecord]:
        return cast("list[ConflictRecord]", self._op("conflicts", **_given(locals())))

    def conflict(self, conflict_id: str) -> ConflictRecord:
        return cast("ConflictRecord", self._op("conflict", conflict_id=conflict_id))

    def resolve_conflict(
        self,
        conflict_id: str,
        *,
        keep: str | None = None,
        both: bool = False,
        merge: str | None = None,
        reason: str,
    ) -> ConflictRecord:
        return cast("ConflictRecord", self._op("resolve_conflict", **_given(locals())))

    def scan_conflicts(self, *, stale: bool = True) -> list[ConflictRecord]:
        return cast("list[ConflictRecord]", self._op("scan_conflicts", stale=stale))

    def link(self, source: str, relation: str, target: str, *, reason: str | None = None) -> Link:
        return cast(Link, self._op("link", **_given(locals())))

    def unlink(self, source: str, relation: str, target: str, *, reason: str | None = None) -> Link:
        return cast(Link, self._op("unlink", **_given(locals())))

    def links(
        self,
        fact_id: str,
        *,
        relation: str | None = None,
        direction: str = "both",
        depth: int = 1,
        limit: int | None = None,
    ) -> LinkGraph:
        return cast(LinkGraph, self._op("links", **_given(locals())))

    def dangling_links(self, *, limit: int | None = None) -> list[DanglingLink]:
        return cast(list[DanglingLink], self._op("dangling_links", **_given(locals())))

    def merge(self, survivor: str, source: str, *, reason: str) -> Fact:
        return cast(Fact, self._op("merge", **_given(locals())))
