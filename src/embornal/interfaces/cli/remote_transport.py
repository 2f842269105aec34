"""Client mode's transport: one HTTP exchange with the standard library (no redirect, the
token to ``server.url`` only), and the problem+json answers mapped to :class:`EmbornalError`
by ``code`` (else by status). Imported only in client mode, by :mod:`.remote`."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from embornal import errors
from embornal.errors import EmbornalError

__all__ = ["BY_CODE", "BY_STATUS", "Transport", "problem_of", "urllib_transport"]

# --------------------------------------------------------------------------- errors

BY_CODE: dict[str, type[EmbornalError]] = {
    cls.code: cls
    for cls in (getattr(errors, name) for name in errors.__all__)
    if isinstance(cls, type) and issubclass(cls, EmbornalError)
}
BY_CODE.update(
    validation_error=errors.InvalidInput,
    invalid_json=errors.InvalidInput,
    body_too_large=errors.InvalidContent,
    cross_origin=errors.AccessDenied,
    host_not_allowed=errors.ConfigError,
)
BY_STATUS: dict[int, type[EmbornalError]] = {
    400: errors.InvalidInput,
    401: errors.Unauthenticated,
    403: errors.AccessDenied,
    404: errors.NotFound,
    409: errors.Conflict,
    413: errors.InvalidContent,
    422: errors.InvalidInput,
}


Transport = Callable[
    [str, str, Mapping[str, str], bytes | None, float], tuple[int, str, Mapping[str, str], bytes]
]
"""``(method, url, headers, body, timeout) -> (status, reason, headers, body)``: one HTTP
exchange. It raises ``OSError`` (or ``http.client.HTTPException``) when no answer came.
The default speaks HTTP with the standard library; tests pass one over the in-process
ASGI app."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: the token goes to ``server.url`` and nowhere else."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def urllib_transport() -> Transport:
    opener = urllib.request.build_opener(_NoRedirect)

    def send(
        method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
    ) -> tuple[int, str, Mapping[str, str], bytes]:
        request = urllib.request.Request(url, data=body, method=method)
        for key, value in headers.items():
            if key == "Authorization":
                request.add_unredirected_header(key, value)
            else:
                request.add_header(key, value)
        try:
            with opener.open(request, timeout=timeout) as response:
                return response.status, response.reason, dict(response.headers), response.read()
        except urllib.error.HTTPError as e:
            try:
                raw = e.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            return e.code, str(e.reason), dict(e.headers or {}), raw

    return send


def problem_of(raw: bytes) -> dict[str, Any] | None:
    """The problem+json body of an error answer, or None when it is not one."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        return data
    return None
