"""Two ASGI guards in front of every route: the Host/Origin check and the body limit.

* ``HostGuardMiddleware``: with ``allowed_hosts``, a request whose ``Host`` is not
  one of them gets 400 (a page on another site cannot reach a loopback server by
  DNS rebinding); and a state-changing request (not GET/HEAD/OPTIONS) that a
  browser says came from another site gets 403 (cross-site form posts against the
  cookie of the wiki, login CSRF). See :func:`from_another_site`. Clients that are
  not browsers send neither ``Origin`` nor ``Sec-Fetch-Site`` and pass.
* ``BodyLimitMiddleware``: a body over ``max_bytes`` gets 413, from its
  ``Content-Length`` before it is read, or (chunked) as soon as the bytes read pass
  the limit, on every path (``/mcp`` too: the SDK's own limit answers in plain text,
  this one in problem+json, and runs first).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from embornal.interfaces.http.problems import BodyTooLarge, problem_response

__all__ = ["BodyLimitMiddleware", "HostGuardMiddleware", "from_another_site"]

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _hostname(netloc: str) -> str:
    """``example.org:8080`` -> ``example.org``; ``[::1]:1338`` -> ``::1``."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def from_another_site(headers: Headers, host: str) -> bool:
    """True when a browser's headers say that the request comes from another site.

    * ``Sec-Fetch-Site`` (set by the browser; a page cannot forge it): anything but
      ``same-origin`` or ``none`` (the user's own navigation) is another site;
      ``same-site`` too (another port of this host is another server).
    * ``Origin``: it must name this host. ``Origin: null`` comes from an opaque
      origin (a ``data:`` page, a sandboxed frame, a redirect across sites) and is
      refused, unless ``Sec-Fetch-Site: same-origin`` vouches for it (a page of this
      site served under ``Referrer-Policy: no-referrer``; the wiki now sends
      ``same-origin``, under which browsers give its forms their real ``Origin``).
    """
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    if origin.strip() == "null":
        return site != "same-origin"
    return not host or urlsplit(origin).netloc.lower() != host.lower()


class HostGuardMiddleware:
    """``guarded_paths``: paths whose every request, reads included, must not come from
    another site (``/mcp``: the MCP spec asks servers to check ``Origin`` on every
    connection, and its ``GET`` opens an event stream)."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_hosts: Iterable[str] | None = None,
        guarded_paths: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.guarded_paths = frozenset(guarded_paths)
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
        checked = scope["method"] not in _SAFE_METHODS or scope["path"] in self.guarded_paths
        if checked and from_another_site(headers, host):
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
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

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
        seen = 0
        limit = self.max_bytes

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    await _drain(receive, message)
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counting_receive, send)


#: How much of an over-large streamed body is read and dropped before the 413 is sent.
#: A client still writing when the server answers and closes can see the connection
#: reset before it reads the answer; reading the rest first lets it read the 413.
#: Past this much the connection is closed anyway.
DRAIN_BYTES = 1 << 20


async def _drain(receive: Receive, message: Message) -> None:
    drained = 0
    while message.get("more_body", False) and drained < DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
