"""What the contract tests share: events as the service writes them, and small helpers."""

from __future__ import annotations

from collections.abc import Sequence

from embornal import FixedClock
from embornal.domain.access import Rule
from embornal.domain.clock import format_time
from embornal.domain.events import ActorKind, EventType, NewEvent
from embornal.domain.scope import ReadScope, read_scope
from embornal.storage.contract import Store


class Events:
    """Events as the service writes them (one place to change when events get types)."""

    def __init__(self, clock: FixedClock) -> None:
        self.clock = clock
        self._n = 0

    def new_id(self) -> str:
        """A fresh fact id, in creation order."""
        self._n += 1
        return f"01KC{self._n:022d}"

    def _event(
        self, stream: str, etype: EventType, payload: dict[str, object], reason: str | None = None
    ) -> NewEvent:
        return NewEvent(
            stream_id=stream,
            type=etype.value,
            payload=payload,
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
        all_tags = sorted([("owner", owner), *tags])
        return self._event(
            fid,
            EventType.FACT_STORED,
            {
                "fact_id": fid,
                "path": path,
                "content": content,
                "kind": "fact",
                "owner": owner,
                "tags": [list(t) for t in all_tags],
                "created_at": format_time(at),
                "supersedes_id": supersedes,
            },
            reason,
        )

    def forgotten(self, fact_id: str) -> NewEvent:
        return self._event(fact_id, EventType.FACT_FORGOTTEN, {"fact_id": fact_id}, "test")

    def purged(self, fact_id: str) -> NewEvent:
        return self._event(fact_id, EventType.FACT_PURGED, {"fact_id": fact_id}, "erase it")

    def path_tagged(self, path: str, tags: Sequence[tuple[str, str]]) -> NewEvent:
        payload = {"path": path, "tags": [list(t) for t in tags]}
        return self._event(f"path:{path}", EventType.PATH_TAGGED, payload)

    def policy_added(self, rule: Rule) -> NewEvent:
        payload = {"ptype": rule.ptype, "values": list(rule.values)}
        return self._event("policy", EventType.POLICY_ADDED, payload)

    def token_issued(self, token_id: str, subject: str, token_hash: str) -> NewEvent:
        payload = {
            "token_id": token_id,
            "subject": subject,
            "name": None,
            "token_hash": token_hash,
            "expires_at": None,
        }
        return self._event(f"token:{token_id}", EventType.TOKEN_ISSUED, payload)

    def token_revoked(self, token_id: str) -> NewEvent:
        return self._event(f"token:{token_id}", EventType.TOKEN_REVOKED, {"token_id": token_id})


def write(store: Store, *new: NewEvent) -> list[str]:
    """Append events in one unit of work; return their stream ids."""
    with store.transaction("a contract test writing") as tx:
        store.append(tx, list(new))
    return [e.stream_id for e in new]


def scope(*rules: tuple[str, str]) -> ReadScope:
    """The read scope of ``(effect, object)`` rules, e.g. ``("allow", "path:/public/*")``."""
    return read_scope([Rule("p", ("reader", obj, "read", effect)) for effect, obj in rules])
