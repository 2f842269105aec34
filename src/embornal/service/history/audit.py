"""``audit_log``: every decision on what a subject may read, with its reason — a view of
the event log, not a second table (decisions 0084, 0099).

The memories' decisions come from one storage read joined to the facts through the read
scope; the claims' and the narratives' from the events of their types, each kept only
when the subject may see its claim (decision 0083) or its narrative version (decisions
0087, 0098), as their own reads decide. The two are merged by position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.domain.claims.ledger import fold
from embornal.domain.events import Event
from embornal.domain.events.claims import CLAIM_EVENTS
from embornal.domain.events.conflicts import CONFLICT_EVENT_CLASSES
from embornal.domain.events.narratives import NARRATIVE_EVENTS
from embornal.domain.history.audit import action_of
from embornal.domain.narratives.accounts import fold_account
from embornal.service.context import check_limit
from embornal.service.history.chronicle_results import AuditEntry

if TYPE_CHECKING:
    from embornal.service.context import ServiceContext

__all__ = ["audit_log"]

_LEDGER_TYPES = tuple(t.TYPE for t in (*CLAIM_EVENTS, *NARRATIVE_EVENTS, *CONFLICT_EVENT_CLASSES))
_PAGE = 200


def _entry(
    e: Event,
    memory_id: str | None,
    claim_id: str | None = None,
    narrative_id: str | None = None,
    conflict_id: str | None = None,
) -> AuditEntry:
    return AuditEntry(
        position=e.position,
        at=e.recorded_at,
        action=action_of(e.type, e.payload, e.reason),
        memory_id=memory_id,
        actor=e.actor,
        actor_kind=e.actor_kind,
        reason=e.reason,
        event_type=e.type,
        claim_id=claim_id,
        narrative_id=narrative_id,
        conflict_id=conflict_id,
    )


class _Seen:
    """Whether the subject may see each claim and narrative version (read once each)."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.claims: dict[str, bool] = {}
        self.versions: dict[str, bool] = {}
        self.conflicts: dict[str, bool] = {}

    def claim(self, claim_id: str) -> bool:
        if claim_id not in self.claims:
            from embornal.domain.claims.ledger import stream_of
            from embornal.service.claims.views import visible_facts

            state = fold(self.ctx.store.read_stream(stream_of(claim_id)))
            self.claims[claim_id] = state is not None and (
                visible_facts(self.ctx, state, state.cited()) is not None
            )
        return self.claims[claim_id]

    def narrative(self, stream_id: str, narrative_id: str) -> bool:
        if narrative_id not in self.versions:
            from embornal.service.narratives.reads import visible

            account = fold_account(self.ctx.store.read_stream(stream_id))
            for v in account.versions if account is not None else ():
                self.versions[v.narrative_id] = visible(self.ctx, v)
        return self.versions.get(narrative_id, False)

    def conflict(self, stream_id: str) -> bool:
        """A conflict is seen by a subject that may read every member (as ``conflicts``)."""
        if stream_id not in self.conflicts:
            from embornal.domain.conflicts.aggregate import fold as fold_conflict

            state = fold_conflict(self.ctx.store.read_stream(stream_id))
            members = list(state.members) if state is not None else []
            found = self.ctx.store.get_facts(members, self.ctx.scope()) if members else []
            self.conflicts[stream_id] = bool(members) and len(found) == len(set(members))
        return self.conflicts[stream_id]

    def entry(self, e: Event) -> AuditEntry | None:
        kind, _, key = e.stream_id.partition(":")
        if kind == "conflict":
            return _entry(e, None, conflict_id=key) if self.conflict(e.stream_id) else None
        if kind == "claim":
            if not self.claim(key):
                return None
            cited = e.payload.get("memory_id")
            return _entry(e, cited if isinstance(cited, str) else None, claim_id=key)
        narrative_id = str(e.payload.get("narrative_id") or "")
        if not self.narrative(e.stream_id, narrative_id):
            return None
        return _entry(e, None, narrative_id=narrative_id)


def _ledger(ctx: ServiceContext, n: int, floor: int) -> list[AuditEntry]:
    """The newest ``n`` claim and narrative decisions the subject may see, above
    position ``floor``."""
    seen, out = _Seen(ctx), list[AuditEntry]()
    before: int | None = None
    while len(out) < n:
        page = ctx.store.claims.events_of_types(_LEDGER_TYPES, limit=_PAGE, before=before)
        for e in page:
            if e.position <= floor:
                return out
            found = seen.entry(e)
            if found is not None:
                out.append(found)
                if len(out) == n:
                    return out
        if len(page) < _PAGE:
            return out
        before = page[-1].position
    return out


def audit_log(ctx: ServiceContext, *, limit: int | None = None) -> list[AuditEntry]:
    """The newest ``limit`` decisions (default: the memory's default limit) on the facts
    the subject may read (forgotten ones included), the claims and the narrative versions
    it may see, the newest first. A recall is not a decision; what the subject may not
    read is not there at all."""
    n = check_limit(limit, ctx.default_limit)
    memories = ctx.store.protocol.audit_events(ctx.scope(), limit=n)
    floor = memories[-1].position if len(memories) == n else 0
    found = [_entry(e, e.stream_id) for e in memories] + _ledger(ctx, n, floor)
    found.sort(key=lambda a: a.position, reverse=True)
    return found[:n]
