"""Errors as RFC 9457 problem details: ``application/problem+json``.

Every error the server answers with has one shape, whatever raised it: a service
error (:class:`~embornal.errors.EmbornalError`, whose ``http_status``, ``code``,
``message`` and ``hint`` become ``status``, ``code``, ``detail`` and ``hint``), a
request that fails validation (422), a body over the limit (413), an unknown route
(404) or method (405), or a bug (500, logged, with no internals in the body).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from embornal.errors import SERVER_BUG_HINT, EmbornalError, Unauthenticated
from embornal.interfaces.http.schemas import Problem, ProblemIssue

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "BodyTooLarge",
    "RequestInvalid",
    "embornal_error_handler",
    "http_exception_handler",
    "problem_response",
    "request_invalid_handler",
    "server_error_handler",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
BEARER_CHALLENGE = 'Bearer realm="embornal"'

log = logging.getLogger("embornal.http")


class BodyTooLarge(Exception):
    """The request body is over the server's limit (413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is over {limit:,} bytes")
        self.limit = limit


class RequestInvalid(Exception):
    """The request does not have the documented shape (422, or 400 for bad JSON)."""

    def __init__(
        self,
        detail: str,
        issues: Sequence[ProblemIssue] = (),
        *,
        status: int = 422,
        code: str = "validation_error",
        hint: str = "",
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.issues = list(issues)
        self.status = status
        self.code = code
        self.hint = hint

    @classmethod
    def from_validation(cls, where: str, error: ValidationError) -> RequestInvalid:
        """One issue per invalid field; the rejected values are not echoed back."""
        issues: list[ProblemIssue] = []
        for item in error.errors(include_url=False, include_input=False, include_context=False):
            # Union members name themselves in the location (``list[str]``): leave them out.
            parts = [str(p) for p in item["loc"] if not (isinstance(p, str) and "[" in p)]
            loc = ".".join((where, *parts))
            if item["type"] == "missing":
                message = "required"
            elif item["type"] == "extra_forbidden":
                message = "not a known field" if where == "body" else "not a known parameter"
            else:
                message = item["msg"]
            issue = ProblemIssue(location=_text(loc), message=_text(message))
            if issue not in issues:
                issues.append(issue)
        names = ", ".join(i.location for i in issues) or where
        return cls(
            f"the request is invalid: {names}",
            issues,
            hint="See /openapi.json for the parameters and bodies of each route.",
        )


_TITLES = {"invalid_json": "Invalid JSON", "http_413": "Content too large"}


def _title(code: str) -> str:
    return _TITLES.get(code) or code.replace("_", " ").capitalize()


def _text(value: str) -> str:
    """Text that encodes as UTF-8 (a lone surrogate from the caller becomes '?')."""
    return value.encode("utf-8", "replace").decode("utf-8")


def problem_response(
    status: int,
    code: str,
    detail: str,
    hint: str = "",
    *,
    issues: Sequence[ProblemIssue] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    body = Problem(
        type=f"urn:embornal:error:{code}",
        title=_title(code),
        status=status,
        detail=_text(detail),
        code=code,
        hint=_text(hint),
        errors=list(issues) if issues is not None else None,
    )
    out = dict(headers or {})
    if status == 401:
        out.setdefault("WWW-Authenticate", BEARER_CHALLENGE)
    return Response(
        body.model_dump_json(exclude_none=True),
        status_code=status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=out,
    )


def _wants_login_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not MCP) goes to the login form."""
    path = request.url.path
    if path.startswith(("/api/", "/mcp", "/openapi.json")) or path == "/login":
        return False
    return request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")


async def embornal_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EmbornalError)
    if isinstance(exc, Unauthenticated) and _wants_login_page(request):
        from urllib.parse import quote

        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)
    status = exc.http_status
    if status >= 500:
        log.warning("request %s %s failed: %s", request.method, request.url.path, exc.message)
    return problem_response(status, exc.code, exc.message, exc.hint)


async def request_invalid_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestInvalid)
    return problem_response(exc.status, exc.code, exc.detail, exc.hint, issues=exc.issues or None)


async def body_too_large_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BodyTooLarge)
    return problem_response(
        413,
        "body_too_large",
        str(exc),
        "Send a smaller body: a fact is one small statement.",
        headers={"Connection": "close"},
    )


async def http_exception_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, f"http_{status}")
    detail = exc.detail if exc.detail and exc.detail != phrase else phrase.lower()
    hint = "See /openapi.json for the routes." if status in (404, 405) else ""
    if status == 404:
        detail = f"no route {request.url.path}"
    if status == 405:
        detail = f"{request.method} is not allowed on {request.url.path}"
    return problem_response(status, code, detail, hint, headers=exc.headers)


async def server_error_handler(request: Request, exc: Exception) -> Response:
    log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        500,
        "internal_error",
        "the server failed unexpectedly",
        SERVER_BUG_HINT,
    )
