"""What the HTTP tests share: the API prefix, auth headers and a live uvicorn server."""

from __future__ import annotations

from typing import Any

API = "/api/v1"
PROBLEM_KEYS = {"type", "title", "status", "detail", "code", "hint"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """``response`` is problem+json with ``status`` (and ``code``); return its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert PROBLEM_KEYS <= set(body) <= PROBLEM_KEYS | {"errors"}
    assert body["status"] == status
    assert body["type"] == f"urn:embornal:error:{body['code']}"
    assert body["title"] and body["detail"] and isinstance(body["hint"], str)
    if code is not None:
        assert body["code"] == code, body
    if status == 401:
        assert response.headers["www-authenticate"].startswith("Bearer")
    return body
