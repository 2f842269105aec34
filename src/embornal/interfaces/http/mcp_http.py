"""MCP over streamable HTTP at ``/mcp``: the tools of ``embornal mcp``, per request subject.

How a tool learns who is calling: this endpoint authenticates each HTTP request
(``Authorization: Bearer <token>``, the same tokens as the REST API; 401 problem+json
otherwise), and sets a :class:`contextvars.ContextVar` to the memory as that
token's subject sees it. The server is built once with a *provider*
(``build_server(current_memory)``) that reads the variable when a tool runs. The
SDK hands each message to its handler in the context of the HTTP request that
carried it, so a tool always sees the subject of the request that called it, not
of the one that opened the session.

The endpoint also puts the subject into ``scope["user"]`` in the SDK's own form,
so the SDK binds each MCP session to the subject that opened it: another subject's
token cannot use that session id (it gets 404, as for an unknown session).

A 401 names the protected-resource metadata (RFC 9728) in its challenge,
``WWW-Authenticate: Bearer realm="embornal", resource_metadata="…"``, served at
``/.well-known/oauth-protected-resource/mcp`` (and for the whole server at
``/.well-known/oauth-protected-resource``). It names no authorization server:
tokens are not had through OAuth but from the owner of the memory
(``embornal token add``), so a client reports a missing or bad token instead of
starting an OAuth flow.
"""

from __future__ import annotations

import hashlib
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from embornal.domain.events import ActorKind
from embornal.errors import EmbornalError, Unauthenticated
from embornal.interfaces.http.auth import Gate
from embornal.interfaces.http.problems import BEARER_CHALLENGE, problem_response
from embornal.service.memory import Memory

__all__ = ["METADATA_PATH", "McpEndpoint", "current_memory", "metadata_routes"]

METADATA_PATH = "/.well-known/oauth-protected-resource"
TOKEN_NOTE = (
    "Bearer tokens for this server are issued by the owner of the memory with "
    "`embornal token add SUBJECT`; there is no OAuth authorization server. "
    "Send the token as Authorization: Bearer <token>."
)

_request_memory: ContextVar[Memory | None] = ContextVar("embornal_request_memory", default=None)


def _base_url(headers: Headers, scope: Scope) -> str:
    scheme = scope.get("scheme", "http")
    host = headers.get("host")
    if not host:
        server = scope.get("server") or ("127.0.0.1", 80)
        host = f"{server[0]}:{server[1]}"
    return f"{scheme}://{host}"


def metadata_routes(mcp_path: str = "/mcp") -> list[BaseRoute]:
    """The protected-resource metadata of ``mcp_path`` and of the whole server."""

    def document(request: Request, resource_path: str) -> Response:
        base = _base_url(request.headers, request.scope)
        return JSONResponse(
            {
                "resource": base + resource_path,
                "bearer_methods_supported": ["header"],
                "resource_name": "embornal memory",
                "description": TOKEN_NOTE,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def for_mcp(request: Request) -> Response:
        return document(request, mcp_path)

    async def for_server(request: Request) -> Response:
        return document(request, "")

    return [
        Route(METADATA_PATH + mcp_path, for_mcp, methods=["GET"], name="resource_metadata_mcp"),
        Route(METADATA_PATH, for_server, methods=["GET"], name="resource_metadata"),
    ]


def _challenge(headers: Headers, scope: Scope, *, token_sent: bool) -> str:
    url = _base_url(headers, scope) + METADATA_PATH + "/mcp"
    error = ', error="invalid_token"' if token_sent else ""
    return f'{BEARER_CHALLENGE}{error}, resource_metadata="{url}"'


def current_memory() -> Memory:
    """The memory as the subject of the current HTTP request sees it."""
    memory = _request_memory.get()
    if memory is None:
        raise Unauthenticated("this MCP call came with no authenticated request")
    return memory


class McpEndpoint:
    """An ASGI app for ``/mcp``: authenticate, then hand over to the SDK's transport."""

    def __init__(self, gate: Gate, *, profile: str = "core", max_body_bytes: int) -> None:
        from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
        from mcp.server.transport_security import TransportSecuritySettings

        from embornal.interfaces.mcp.server import build_server

        self.gate = gate
        self.server = build_server(current_memory, profile=profile)
        # Host and Origin are checked for the whole app (HostGuardMiddleware).
        self.server.streamable_http_app(
            streamable_http_path="/mcp",
            max_request_body_size=max_body_bytes,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self.manager = self.server.session_manager
        self.transport = StreamableHTTPASGIApp(self.manager)

    def lifespan(self) -> AbstractAsyncContextManager[None]:
        return self.manager.run()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
        from mcp.server.auth.provider import AccessToken

        headers = Headers(scope=scope)
        try:
            # MCP's caller is a program, whoever holds the token (decision 0039)
            memory = await run_in_threadpool(
                self.gate.for_headers, headers, None, ActorKind.ASSISTANT
            )
        except EmbornalError as e:
            extra: dict[str, str] = {}
            hint = e.hint
            if e.http_status == 401:
                sent = bool(headers.get("authorization", "").partition(" ")[2].strip())
                extra["WWW-Authenticate"] = _challenge(headers, scope, token_sent=sent)
                hint = hint or TOKEN_NOTE
            response = problem_response(e.http_status, e.code, e.message, hint, headers=extra)
            await response(scope, receive, send)
            return
        token = headers.get("authorization", "").partition(" ")[2].strip()
        scope["user"] = AuthenticatedUser(
            AccessToken(
                token=hashlib.sha256(token.encode("utf-8")).hexdigest(),
                client_id=memory.subject,
                subject=memory.subject,
                scopes=[],
            )
        )
        reset = _request_memory.set(memory)
        try:
            await self.transport(scope, receive, send)
        finally:
            _request_memory.reset(reset)
