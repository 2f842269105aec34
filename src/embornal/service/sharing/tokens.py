"""A bearer token as listed (``Memory.tokens``, ``token_add``): off the start-up path of
the short commands, which never list one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from embornal.domain.clock import parse_time
from embornal.domain.events import ActorKind

__all__ = ["TokenInfo", "token_info"]


@dataclass(frozen=True)
class TokenInfo:
    """A bearer token as listed (never the token itself). ``actor_kind``: who holds it, a
    person or an assistant, the actor kind of what it writes (decision 0147)."""

    id: str
    subject: str
    name: str | None
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    actor_kind: ActorKind = ActorKind.ASSISTANT

    def active(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


def token_info(row: Mapping[str, Any]) -> TokenInfo:
    return TokenInfo(
        id=row["id"],
        subject=row["subject"],
        name=row["name"],
        created_at=parse_time(row["created_at"]),
        expires_at=parse_time(row["expires_at"]) if row["expires_at"] else None,
        revoked_at=parse_time(row["revoked_at"]) if row["revoked_at"] else None,
        actor_kind=ActorKind(row["actor_kind"]),
    )
