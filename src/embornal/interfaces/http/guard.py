"""Two ASGI guards in front of every route: the Host/Origin check and the body limit.

* ``HostGuardMiddleware``: with ``allowed_hosts``, a request whose ``Host`` is not
  one of them gets 400 (a page on another site cannot reach a loopback server by
  DNS rebinding); and a state-changing request (not GET/HEAD/OPTIONS) that comes
  with an ``Origin`` of another site gets 403 (cross-site form posts against the
  cookie of the wiki). Clients that are not browsers send no ``Origin``.
* ``BodyLimitMiddleware``: a body over ``max_bytes`` gets 413, from its
  ``Content-Length`` before it is read, or (chunked) as soon as the bytes read pass
  the limit.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from embornal.interfaces.http.problems import BodyTooLarge, problem_response

__all__ = ["BodyLimitMiddleware", "HostGuardMiddleware"]

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _hostname(netloc: str) -> str:
    """``example.org:8080`` -> ``example.org``; ``[::1]:1338`` -> ``::1``."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


class HostGuardMiddleware:
    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.allowed = (
            frozenset(h.lower().strip("[]") for h in allowed_hosts)
            if allowed_hosts is not None
            else None
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.allowed is not None and _hostname(host) not in self.allowed:
            response = problem_response(
                400,
                "host_not_allowed",
                "this server does not answer to that host name",
                "Use http://127.0.0.1:PORT/ (or start the server with --bind).",
            )
            await response(scope, receive, send)
            return
        origin = headers.get("origin")
        if scope["method"] not in _SAFE_METHODS and origin is not None:
            parts = urlsplit(origin)
            same = parts.netloc.lower() == host.lower() and bool(host)
            if not same:
                response = problem_response(
                    403,
                    "cross_origin",
                    "a request from another site may not change the memory",
                    "Send the request from the memory's own pages, or without an Origin.",
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int, stream_exempt: Iterable[str] = ()) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Paths whose app counts the bytes itself (the MCP SDK does).
        self.stream_exempt = tuple(stream_exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared < 0 or declared > self.max_bytes:
                if declared < 0:
                    response = problem_response(
                        400, "invalid_input", "the Content-Length header is not a number"
                    )
                else:
                    response = problem_response(
                        413,
                        "body_too_large",
                        f"the request body is over {self.max_bytes:,} bytes",
                        "Send a smaller body: a fact is one small statement.",
                        headers={"Connection": "close"},
                    )
                await response(scope, receive, send)
                return
        if scope["path"] in self.stream_exempt:
            await self.app(scope, receive, send)
            return
        seen = 0
        limit = self.max_bytes

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counting_receive, send)
