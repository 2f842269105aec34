"""The key of ``embornal memory wiki``: only who saw the printed URL opens the pages.

The local wiki reads as the subject ``default``, a person, with every right; a loopback
port is open to every user of the machine. So the wiki draws a random key when it
starts and prints it once, in its URL (``http://127.0.0.1:PORT/?key=...``). Opening that
URL answers ``303`` to the same page without the key and sets a cookie holding it
(``HttpOnly; SameSite=Strict; Path=/``). Every request without the cookie (or with a
wrong one) gets ``401`` and a short page that says to open the printed URL; nothing of
the memory is read (decision 0135).

The cookie's name carries the port, so two wikis on one host (cookies are shared by
every port of a host) each keep their own.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from embornal.errors import ConfigError

__all__ = ["KEY_PARAM", "OwnerKeyMiddleware", "key_cookie", "new_key"]

KEY_PARAM = "key"
_KEY_BYTES = 32
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
_REFUSED = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
    "<title>Open the wiki with its key · embornal</title></head><body>"
    "<h1>Open the wiki with its key</h1>"
    "<p>This wiki opens only with the key it printed when it started. Open the URL that "
    "<code>embornal memory wiki</code> printed (it ends in <code>/?key=…</code>); this "
    "browser then keeps the key in a cookie.</p>"
    "<p>Lost it? Stop the wiki and start it again: each start prints a new key.</p>"
    "</body></html>\n"
)


def new_key() -> str:
    """A fresh key: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(_KEY_BYTES)


def key_cookie(scope: Scope) -> str:
    """The cookie that holds the key of the wiki serving ``scope`` (named by its port)."""
    server = scope.get("server")
    port = server[1] if server and server[1] is not None else None
    return f"embornal_wiki_key_{port}" if port is not None else "embornal_wiki_key"


def _matches(key: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(key.encode(), (given or "").encode())


class OwnerKeyMiddleware:
    """Lets through only the requests that carry the wiki's key (see the module)."""

    def __init__(self, app: ASGIApp, key: str) -> None:
        if len(key) < 16:
            raise ConfigError("the wiki key is too short: 16 characters at least")
        self.app = app
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        name = key_cookie(scope)
        if _matches(self.key, request.cookies.get(name)):
            await self.app(scope, receive, send)
            return
        given = request.query_params.get(KEY_PARAM)
        if scope["method"] in ("GET", "HEAD") and _matches(self.key, given):
            # Trade the key in the URL for the cookie, and drop it from the address bar.
            query = parse_qsl(request.url.query, keep_blank_values=True)
            rest = [(k, v) for k, v in query if k != KEY_PARAM]
            target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
            if not target.startswith("/") or target.startswith("//") or "\\" in target:
                target = "/"  # a local path only, never another host
            response: Response = RedirectResponse(target, 303, headers=_HEADERS)
            response.set_cookie(name, self.key, path="/", httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        response = HTMLResponse(_REFUSED, 401, headers=_HEADERS)
        if name in request.cookies:
            response.delete_cookie(name, path="/", httponly=True, samesite="strict")
        await response(scope, receive, send)
