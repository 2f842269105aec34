"""The ASGI applications: ``create_app`` for ``embornal serve`` and
``create_local_wiki_app`` for ``embornal memory wiki``.

``create_app`` serves, on one port:

* ``/api/v1/...`` — the REST API (bearer tokens, problem+json errors);
* ``/openapi.json`` — its OpenAPI 3.1 document;
* ``/mcp`` — MCP over streamable HTTP, the same tools as ``embornal mcp``, the
  same bearer tokens; each request's tools see that request's subject;
* ``/`` — the wiki pages, when the wiki module is there (browsers log in with the
  ``embornal_token`` cookie that the wiki's ``/login`` form sets).

``create_local_wiki_app`` serves the wiki pages alone, to whoever holds the key it
draws (:mod:`embornal.interfaces.http.owner_key`).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from embornal.domain.events import ActorKind
from embornal.errors import ConfigError, EmbornalError
from embornal.interfaces.http.api import OPERATIONS, api_routes
from embornal.interfaces.http.auth import Gate
from embornal.interfaces.http.guard import BodyLimitMiddleware, HostGuardMiddleware
from embornal.interfaces.http.owner_key import OwnerKeyMiddleware, new_key
from embornal.interfaces.http.problems import (
    BodyTooLarge,
    RequestInvalid,
    body_too_large_handler,
    embornal_error_handler,
    http_exception_handler,
    request_invalid_handler,
    server_error_handler,
)
from embornal.service.memory import Memory

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "LOOPBACK_HOSTS",
    "GetMemory",
    "create_app",
    "create_local_wiki_app",
]

DEFAULT_MAX_BODY_BYTES = 1_048_576
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
WIKI_MODULE = "embornal.interfaces.http.wiki"

GetMemory = Callable[[Request], Memory]
"""What the wiki pages get: the memory as the request's subject sees it.

Blocking (it may read the database): call it in a worker thread, as the service
calls. It raises :class:`~embornal.errors.Unauthenticated` when the request has no
valid token; left unhandled, that becomes a redirect to ``/login`` for a browser
asking for a page, and a 401 problem otherwise.
"""

Lifespan = Callable[[], AbstractAsyncContextManager[None]]


def _handlers() -> dict[Any, Callable[[Request, Exception], Any]]:
    return {
        EmbornalError: embornal_error_handler,
        RequestInvalid: request_invalid_handler,
        BodyTooLarge: body_too_large_handler,
        HTTPException: http_exception_handler,
        Exception: server_error_handler,
    }


def _wiki_routes(get_memory: GetMemory) -> list[BaseRoute] | None:
    """The wiki's routes, or None when this build has no wiki module."""
    try:
        module = importlib.import_module(WIKI_MODULE)
    except ModuleNotFoundError as e:
        if e.name != WIKI_MODULE:
            raise
        return None
    factory: Callable[[GetMemory], Iterable[BaseRoute]] = module.wiki_routes
    return list(factory(get_memory))


def _starlette(
    routes: list[BaseRoute],
    *,
    max_body_bytes: int,
    allowed_hosts: Sequence[str] | None,
    lifespans: Sequence[Lifespan] = (),
    mcp_paths: tuple[str, ...] = (),
    inner: Sequence[Middleware] = (),
) -> Starlette:
    """``mcp_paths`` are served by the MCP SDK: every request there, ``GET`` (its event
    stream) included, is checked for another site's origin."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for enter in lifespans:
                await stack.enter_async_context(enter())
            yield

    return Starlette(
        routes=routes,
        middleware=[
            Middleware(HostGuardMiddleware, allowed_hosts=allowed_hosts, guarded_paths=mcp_paths),
            Middleware(BodyLimitMiddleware, max_bytes=max_body_bytes),
            *inner,
        ],
        exception_handlers=_handlers(),
        lifespan=lifespan,
    )


def create_app(
    memory: Memory,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    wiki: bool = True,
    mcp: bool = True,
    mcp_profile: str = "core",
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The ``embornal serve`` application over ``memory`` (any subject: each request
    acts as its token's subject).

    ``allowed_hosts``: the host names the server answers to (a guard against DNS
    rebinding); None answers to any. ``mcp=False`` leaves out ``/mcp`` (and the MCP
    SDK import); ``wiki=False`` leaves out the pages.
    """
    if max_body_bytes < 1:
        raise ConfigError("max_body_bytes must be a positive number of bytes")
    gate = Gate(memory)
    document: dict[str, Any] | None = None

    async def openapi(request: Request) -> Response:
        nonlocal document
        if document is None:
            from embornal.interfaces.http.openapi import openapi_document

            document = openapi_document(OPERATIONS)
        return JSONResponse(document)

    routes: list[BaseRoute] = [
        Route("/openapi.json", openapi, methods=["GET"], name="openapi"),
        *api_routes(gate),
    ]
    lifespans: list[Lifespan] = []
    if mcp:
        from embornal.interfaces.http.mcp_http import McpEndpoint, metadata_routes

        endpoint = McpEndpoint(gate, profile=mcp_profile, max_body_bytes=max_body_bytes)
        routes.append(Route("/mcp", endpoint, name="mcp"))
        routes.extend(metadata_routes("/mcp"))
        lifespans.append(endpoint.lifespan)
    if wiki:

        def get_memory(request: Request) -> Memory:
            # As who holds the token (decision 0147): a person's token reads its subject's
            # private facts and decides; an assistant's never sees a private fact.
            return gate.for_headers(request.headers, request.cookies)

        routes.extend(_wiki_routes(get_memory) or [])
    app = _starlette(
        routes,
        max_body_bytes=max_body_bytes,
        allowed_hosts=allowed_hosts,
        lifespans=lifespans,
        mcp_paths=("/mcp",),
    )
    app.state.gate = gate
    return app


def create_local_wiki_app(
    memory: Memory, *, key: str | None = None, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
) -> Starlette:
    """The wiki pages for ``embornal memory wiki``: no token, subject ``default``.

    Meant for a loopback bind only: it answers to loopback host names alone (so a
    web page cannot reach it through DNS rebinding) and refuses cross-origin writes.
    Every request must carry ``key`` (None: a fresh one, in ``app.state.wiki_key``):
    the URL to print is ``/?key=<key>``, which trades it for a cookie (decision 0135).
    """
    gate = Gate(memory)

    def get_memory(request: Request) -> Memory:
        return gate.local("default", ActorKind.PERSON)

    routes = _wiki_routes(get_memory)
    if routes is None:
        raise ConfigError(
            "the wiki pages are not part of this build",
            hint="Use `embornal serve` for the REST API, or the CLI to browse the memory.",
        )
    wiki_key = key if key is not None else new_key()
    app = _starlette(
        routes,
        max_body_bytes=max_body_bytes,
        allowed_hosts=LOOPBACK_HOSTS,
        inner=[Middleware(OwnerKeyMiddleware, key=wiki_key)],
    )
    app.state.gate = gate
    app.state.wiki_key = wiki_key
    return app
