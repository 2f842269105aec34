"""run_server / run_wiki, and the wiki seam: how the pages get the request's memory."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from http_helpers import API, assert_problem, bearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.testclient import TestClient

from embornal import Memory
from embornal.errors import ConfigError, InvalidInput
from embornal.interfaces.http.app import WIKI_MODULE, create_app, create_local_wiki_app
from embornal.interfaces.http.server import is_loopback, run_server


def test_a_remote_bind_is_refused_unless_asked_for(tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    with pytest.raises(InvalidInput, match="reachable from other machines"):
        run_server(db_path=str(db), bind="0.0.0.0", port=0)
    with pytest.raises(InvalidInput):
        run_server(db_path=str(db), bind="192.0.2.10", port=0)
    assert not db.exists()


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.1", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=f"cannot listen on 127.0.0.1:{port}") as info:
            run_server(db_path=str(tmp_path / "m.db"), port=port)
        assert "--port" in info.value.hint


SERVE = """
import sys
from embornal.interfaces.http import run_server
run_server(db_path=sys.argv[1], port=0)
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_run_server_prints_its_url_and_serves_until_stopped(
    tmp_path: Path, stop: signal.Signals
) -> None:
    db = tmp_path / "served.db"
    with Memory.open(db) as memory:
        token = memory.token_add("alice").token
    with subprocess.Popen(
        [sys.executable, "-c", SERVE, str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("embornal serve: http://127.0.0.1:"), line
            url = line.split()[2].rstrip("/")
            with httpx2.Client(base_url=url, timeout=30) as http:
                assert http.get(f"{API}/health").status_code == 200
                r = http.post(
                    f"{API}/facts",
                    headers=bearer(token),
                    json={"path": "/served", "content": "Stored over the wire."},
                )
                assert r.status_code == 201
                assert http.get("/openapi.json").status_code == 200
                # Loopback server: only loopback host names.
                assert http.get(f"{API}/health", headers={"Host": "evil.test"}).status_code == 400
        finally:
            proc.send_signal(stop)
            _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
    with Memory.open(db) as memory:
        assert [v.fact.content for v in memory.cat("/served")] == ["Stored over the wire."]


# -- the wiki seam ----------------------------------------------------------------------------


def _fake_wiki(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in wiki module: one page that names the subject, one form post."""

    def wiki_routes(get_memory: object) -> list[BaseRoute]:
        async def page(request: Request) -> Response:
            memory = await run_in_threadpool(get_memory, request)  # type: ignore[arg-type]
            return PlainTextResponse(f"{memory.subject}/{memory.actor_kind.value}")

        async def login(request: Request) -> Response:
            return PlainTextResponse("login form")

        return [
            Route("/page", page, methods=["GET", "POST"]),
            Route("/login", login, methods=["GET", "POST"]),
        ]

    module = types.ModuleType(WIKI_MODULE)
    module.wiki_routes = wiki_routes  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, WIKI_MODULE, module)


@pytest.fixture
def served_wiki(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    _fake_wiki(monkeypatch)
    with TestClient(create_app(memory, mcp=False), follow_redirects=False) as client:
        yield client


def test_wiki_pages_take_the_cookie_or_the_bearer_token(
    served_wiki: TestClient, tokens: dict[str, str]
) -> None:
    cookie = {"Cookie": f"embornal_token={tokens['alice']}"}
    # A token is an assistant's wherever it is shown (decision 0039).
    assert served_wiki.get("/page", headers=cookie).text == "alice/assistant"
    assert served_wiki.get("/page", headers=bearer(tokens["bob"])).text == "bob/assistant"


def test_wiki_pages_without_a_token_go_to_the_login_form(
    served_wiki: TestClient,
) -> None:
    r = served_wiki.get("/page?x=1", headers={"Accept": "text/html,*/*"})
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=%2Fpage%3Fx%3D1"
    assert served_wiki.get("/login", headers={"Accept": "text/html"}).text == "login form"
    # Not a browser asking for a page: a 401 problem.
    assert_problem(served_wiki.get("/page"), 401)
    bad = {"Cookie": "embornal_token=emb_bad_token", "Accept": "text/html"}
    assert served_wiki.get("/page", headers=bad).status_code == 303


def test_the_api_wins_over_the_wiki(served_wiki: TestClient, tokens: dict[str, str]) -> None:
    r = served_wiki.get(f"{API}/whoami", headers=bearer(tokens["alice"]))
    assert r.json() == {"subject": "alice", "actor_kind": "assistant"}


def test_the_local_wiki_is_default_with_its_key(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_wiki(monkeypatch)
    key = "k" * 43
    app = create_local_wiki_app(memory, key=key)
    with TestClient(app, base_url="http://127.0.0.1:1337") as client:
        assert client.get("/page").status_code == 401  # no key, no page (decision 0135)
        assert client.get(f"/page?key={key}").text == "default/person"
        assert client.get("/page", headers={"Host": "localhost:1337"}).status_code == 200
        # Another host name (DNS rebinding) or another site's form: refused.
        assert_problem(client.get("/page", headers={"Host": "evil.test"}), 400, "host_not_allowed")
        r = client.post("/page", headers={"Origin": "http://evil.test"})
        assert_problem(r, 403, "cross_origin")
        assert client.post("/page", headers={"Origin": "http://127.0.0.1:1337"}).is_success
        # No REST, no MCP on the local wiki.
        assert client.get(f"{API}/whoami").status_code == 404
        assert client.post("/mcp").status_code == 404


def test_without_a_wiki_module(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, WIKI_MODULE, None)
    with pytest.raises(ConfigError, match="wiki"):
        create_local_wiki_app(memory)
    with TestClient(create_app(memory, mcp=False)) as client:
        assert client.get(f"{API}/health").status_code == 200
        assert_problem(client.get("/"), 404)


def test_the_real_wiki_is_mounted(memory: Memory) -> None:
    pytest.importorskip(WIKI_MODULE)
    with TestClient(create_app(memory, mcp=False), follow_redirects=False) as client:
        r = client.get("/login", headers={"Accept": "text/html"})
        assert r.status_code == 200
        assert "text/html" in r.headers["content-type"]
