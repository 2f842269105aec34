"""What the HTTP tests share: the API prefix, auth headers and a live uvicorn server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a free port) in a thread; yield its URL."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="on",
        ws="none",
        access_log=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
