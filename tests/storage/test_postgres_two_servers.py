"""Two ``embornal serve`` processes on one PostgreSQL database (decision
0103): clients writing and recalling through both lose and duplicate no write, count each
recall's reinforcement once, and a token revoked or a rule changed (on the shared
database) is honoured by both servers at their next request."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from pg_server import PgServer

pytestmark = [
    pytest.mark.postgresql,
    pytest.mark.skipif(os.name != "posix", reason="stops the servers with a signal"),
    pytest.mark.slow,  # about 30 s: two servers start; .ci/run runs it
]

EMBORNAL = Path(sys.executable).with_name("embornal")
WRITERS, EACH, RECALLS = 4, 15, 12


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.fresh_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop(name)


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(EMBORNAL), *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@contextmanager
def _serve(env: dict[str, str], db: str) -> Iterator[str]:
    """``embornal --db DB serve`` on a free loopback port; yield its base URL."""
    proc = subprocess.Popen(
        [str(EMBORNAL), "--db", db, "--json", "serve", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline().decode()
        assert first, proc.stderr.read().decode()
        yield str(json.loads(first)["url"]).rstrip("/")
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def _call(base: str, token: str, method: str, route: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "/api/v1" + route, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _recall(base: str, token: str, query: str) -> tuple[int, Any]:
    q = urllib.parse.urlencode({"q": query, "mode": "keyword"})
    return _call(base, token, "GET", f"/recall?{q}")


def test_two_servers_on_one_database(url: str, tmp_path: Path, clock: FixedClock) -> None:
    env = {**os.environ, "EMBORNAL_HOME": str(tmp_path / "home"), "EMBORNAL_EMBEDDING": "off"}
    admin = json.loads(_cli(env, "--db", url, "--json", "token", "add", "default"))["token"]
    bob = json.loads(_cli(env, "--db", url, "--json", "token", "add", "bob"))
    with ExitStack() as stack:
        servers = [stack.enter_context(_serve(env, url)) for _ in range(2)]
        for base in servers:
            answer = _call(base, admin, "GET", "/whoami")
            assert answer[0] == 200 and answer[1]["subject"] == "default", answer

        # -- concurrent writes through both: none lost, none twice --------------------------
        stored: list[str] = []
        failures: list[Any] = []

        def write(base: str, w: int) -> None:
            for i in range(EACH):
                body = {"path": f"/load/w{w}", "content": f"writer {w} wrote number {i}"}
                status, answer = _call(base, admin, "POST", "/facts", body)
                if status != 201 and status != 200:
                    failures.append((status, answer))
                    continue
                stored.append(answer["id"] if "id" in answer else answer["fact"]["id"])

        threads = [threading.Thread(target=write, args=(servers[w % 2], w)) for w in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        assert len(stored) == len(set(stored)) == WRITERS * EACH

        # -- recall through both at once: each reinforcement counted once ------------------
        quokka = {"path": "/recall/one", "content": "The quokka lives on Rottnest."}
        target = _call(servers[0], admin, "POST", "/facts", quokka)
        target_id = target[1]["id"] if "id" in target[1] else target[1]["fact"]["id"]
        counted: list[int] = []

        def recall(base: str) -> None:
            for _ in range(RECALLS):
                status, hits = _recall(base, admin, "quokka")
                assert status == 200
                counted.append(sum(1 for h in hits["hits"] if h["fact"]["id"] == target_id))

        threads = [threading.Thread(target=recall, args=(b,)) for b in servers for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(counted) == 4 * RECALLS

        # -- a token revoked, a rule changed: both honour it at the next request -----------
        for base in servers:
            assert _call(base, bob["token"], "GET", "/whoami")[0] == 200
        _cli(env, "--db", url, "token", "revoke", bob["id"])
        for base in servers:
            assert _call(base, bob["token"], "GET", "/whoami")[0] == 401
        carol = json.loads(_cli(env, "--db", url, "--json", "token", "add", "carol"))["token"]
        _cli(env, "--db", url, "policy", "add", "p", "carol", "path:/recall/*", "read", "allow")
        for base in servers:
            status, hits = _recall(base, carol, "quokka")
            assert status == 200 and [h["fact"]["id"] for h in hits["hits"]] == [target_id]
            counted.append(1)
        _cli(env, "--db", url, "policy", "rm", "p", "carol", "path:/recall/*", "read", "allow")
        for base in servers:
            status, hits = _recall(base, carol, "quokka")
            assert status == 200 and hits["hits"] == []

    with Memory.open(url, clock=clock) as mem:
        assert mem.verify() == []
        fact = mem.show(target_id).fact
        assert fact.recall_count == sum(counted)  # one reinforcement a recall, none lost
        recalls = [e for e in mem._store.read_all() if e.type == "FactsRecalled"]
        assert sum(target_id in e.payload["fact_ids"] for e in recalls) == sum(counted)
        contents = [v.fact.content for w in range(WRITERS) for v in mem.cat(f"/load/w{w}")]
        assert sorted(contents) == sorted(
            f"writer {w} wrote number {i}" for w in range(WRITERS) for i in range(EACH)
        )
