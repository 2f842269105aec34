"""What the contract tests share: events as the service writes them, and small helpers."""

from __future__ import annotations

from collections.abc import Sequence

from embornal import FixedClock
from embornal.domain.access.rules import Rule
from embornal.domain.access.scope import ReadScope, read_scope
from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    FactForgotten,
    FactPurged,
    FactStored,
    NewEvent,
    PathTagged,
    PolicyAdded,
    TokenIssued,
    TokenRevoked,
)
from embornal.domain.events.protocol import MemoryCaptured
from embornal.domain.facts.tags import Tag
from embornal.storage.contract.store import Store


class Events:
    """Events as the service writes them (typed bodies, as the service builds them)."""

    def __init__(self, clock: FixedClock) -> None:
        self.clock = clock
        self._n = 0

    def new_id(self) -> str:
        """A fresh fact id, in creation order."""
        self._n += 1
        return f"01KC{self._n:022d}"

    def _event(self, stream: str, body: DomainEvent, reason: str | None = None) -> NewEvent:
        return NewEvent(
            stream_id=stream,
            body=body,
            actor="default",
            actor_kind=ActorKind.PERSON,
            recorded_at=self.clock.now(),
            reason=reason,
        )

    def stored(
        self,
        path: str,
        content: str,
        *,
        fact_id: str | None = None,
        tags: Sequence[tuple[str, str]] = (),
        owner: str = "default",
        supersedes: str | None = None,
        minutes: int = 0,
        reason: str | None = None,
    ) -> NewEvent:
        fid = fact_id or self.new_id()
        at = self.clock.now().replace(minute=minutes % 60)
        all_tags = tuple(sorted(Tag(k, v) for k, v in [("owner", owner), *tags]))
        body = FactStored(
            fact_id=fid,
            path=path,
            content=content,
            owner=owner,
            created_at=at,
            tags=all_tags,
            supersedes_id=supersedes,
        )
        return self._event(fid, body, reason)

    def captured(self, body: MemoryCaptured) -> NewEvent:
        return self._event(body.fact_id, body)

    def forgotten(self, fact_id: str) -> NewEvent:
        return self._event(fact_id, FactForgotten(fact_id=fact_id), "test")

    def purged(self, fact_id: str) -> NewEvent:
        return self._event(fact_id, FactPurged(fact_id=fact_id), "erase it")

    def path_tagged(self, path: str, tags: Sequence[tuple[str, str]]) -> NewEvent:
        body = PathTagged(path=path, tags=tuple(Tag(k, v) for k, v in tags))
        return self._event(f"path:{path}", body)

    def policy_added(self, rule: Rule) -> NewEvent:
        return self._event("policy", PolicyAdded(ptype=rule.ptype, values=rule.values))

    def token_issued(self, token_id: str, subject: str, token_hash: str) -> NewEvent:
        body = TokenIssued(token_id=token_id, subject=subject, token_hash=token_hash)
        return self._event(f"token:{token_id}", body)

    def token_revoked(self, token_id: str) -> NewEvent:
        return self._event(f"token:{token_id}", TokenRevoked(token_id=token_id))


def write(store: Store, *new: NewEvent) -> list[str]:
    """Append events in one unit of work; return their stream ids."""
    with store.transaction("a contract test writing") as tx:
        store.append(tx, list(new))
    return [e.stream_id for e in new]


def scope(*rules: tuple[str, str]) -> ReadScope:
    """The read scope of ``(effect, object)`` rules, e.g. ``("allow", "path:/public/*")``."""
    return read_scope([Rule("p", ("reader", obj, "read", effect)) for effect, obj in rules])
