"""From a request's credentials to the memory as its subject sees it.

A bearer token (``Authorization: Bearer <token>``), or for browsers the
``embornal_token`` cookie that the wiki's login form sets, is checked by
``Memory.token_of`` on every request (so a revoked or expired token stops at
once); the view is the token's subject, as the actor kind of who holds it
(decision 0147). The subject's :class:`Memory` (``memory.as_subject``) is cached
per worker thread: no object is shared between threads, no lock is taken, and the
access rules still follow every policy change (the service compares the policy
version on each read).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

from embornal.domain.events import ActorKind
from embornal.errors import Unauthenticated
from embornal.service.memory import Memory

__all__ = ["TOKEN_COOKIE", "Gate", "bearer_token"]

TOKEN_COOKIE = "embornal_token"
_CACHE_SIZE = 256


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None when absent."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        raise Unauthenticated(
            "the Authorization header is not a bearer token",
            hint="Send Authorization: Bearer <token> (see `embornal token add`).",
        )
    token = token.strip()
    if not token:
        raise Unauthenticated("the bearer token is empty")
    return token


class Gate:
    """Authenticates requests against one memory and hands out its subjects' views."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._local = threading.local()

    def _view(self, subject: str, kind: ActorKind) -> Memory:
        cache: OrderedDict[tuple[str, ActorKind], Memory] | None = getattr(
            self._local, "views", None
        )
        if cache is None:
            cache = OrderedDict()
            self._local.views = cache
        key = (subject, kind)
        view = cache.get(key)
        if view is None:
            view = self.memory.as_subject(subject, kind)
            cache[key] = view
            if len(cache) > _CACHE_SIZE:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return view

    def for_token(self, token: str | None, kind: ActorKind | None = None) -> Memory:
        """The memory as the token's subject sees it, as the actor kind of who holds the
        token (``token add --person``: a person; else an assistant, decision 0147), or as
        ``kind`` when given (MCP: always an assistant). Blocking: call it in a worker
        thread."""
        if token is None:
            raise Unauthenticated("no token was sent")
        info = self.memory.token_of(token)
        return self._view(info.subject, kind or info.actor_kind)

    def for_headers(
        self,
        headers: Mapping[str, str],
        cookies: Mapping[str, str] | None = None,
        kind: ActorKind | None = None,
    ) -> Memory:
        """Bearer header first, then (for browsers) the ``embornal_token`` cookie."""
        token = bearer_token(headers.get("authorization"))
        if token is None and cookies is not None:
            token = cookies.get(TOKEN_COOKIE) or None
        return self.for_token(token, kind)

    def local(self, subject: str = "default", kind: ActorKind = ActorKind.PERSON) -> Memory:
        """No token: the memory as ``subject`` sees it (``embornal memory wiki``)."""
        return self._view(subject, kind)
