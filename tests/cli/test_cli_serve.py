"""``embornal serve`` and ``embornal memory wiki`` through the console script.

Only loopback servers really start here. The network cases are checked where the
command stops before any socket listens: the refusal without a token, and the
warning followed by a bind to a documentation address (192.0.2.1, RFC 5737) that
no machine owns, so the bind fails.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from cli_helpers import EMBORNAL, Run

posix_only = pytest.mark.skipif(os.name != "posix", reason="stops the server with a signal")


def test_serve_on_the_network_needs_a_token(cli: Run) -> None:
    r = cli("serve", "--bind", "0.0.0.0", "--port", "0")
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "refusing to serve on 0.0.0.0" in r.err and "embornal token add" in r.err
    r = cli("--json", "serve", "--bind", "::")
    assert r.code == 2 and r.json()["error"] == "invalid_input"


def test_serve_on_the_network_warns_before_it_binds(cli: Run) -> None:
    assert cli("token", "add", "alice").code == 0
    r = cli("serve", "--bind", "192.0.2.1", "--port", "0")
    lines = r.err.splitlines()
    assert lines[0].startswith("embornal: warning: serving on 192.0.2.1: the memory is reachable")
    assert "for holders of a token only" in lines[0] and "TLS" in lines[0]
    assert r.code == 6 and lines[1].startswith("embornal: cannot listen on 192.0.2.1")
    assert len(lines) == 2 and r.out == ""


def test_serve_and_wiki_refuse_other_subjects_and_bad_ports(cli: Run) -> None:
    r = cli("--as-subject", "alice", "serve")
    assert r.code == 2 and "each request acts as the subject of its token" in r.err
    r = cli("memory", "wiki", "--as-subject", "alice")
    assert r.code == 2 and "as the subject default" in r.err
    assert cli("serve", "--port", "70000").code == 2
    assert cli("memory", "wiki", "--port", "-1").code == 2


@contextmanager
def _running(*args: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Start ``embornal ARGS``; yield it and its first stdout line; stop it with SIGTERM."""
    proc = subprocess.Popen(
        [str(EMBORNAL), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline().decode()
        yield proc, first
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        finally:
            proc.stdout.close()
            proc.stderr.close()


def _get(url: str, token: str | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


@posix_only
def test_serve_on_loopback_answers_token_holders(cli: Run) -> None:
    token = cli("token", "add", "alice", "--json").json()["token"]
    with _running("serve", "--port", "0", "--json") as (proc, first):
        announced = json.loads(first)
        url = announced["url"]
        assert url.startswith("http://127.0.0.1:"), first
        status, body = _get(url + "api/v1/whoami", token)
        assert status == 200 and json.loads(body)["subject"] == "alice"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert proc.stderr is not None
        assert proc.stderr.read().decode() == ""  # loopback, a token exists: no warning


@posix_only
def test_memory_wiki_serves_pages_until_stopped(cli: Run) -> None:
    assert cli("memory", "store", "/rocks", "Quartz is hard.").code == 0
    with _running("memory", "wiki", "--port", "0") as (proc, first):
        assert first.startswith("embornal wiki: http://127.0.0.1:"), first
        url = first.split()[2]
        base, _, key = url.partition("/?key=")
        assert len(key) >= 43, url  # the key only the owner saw (decision 0135)
        # Another user of the machine, without the key: 401, not a page of the memory.
        with pytest.raises(urllib.error.HTTPError) as refused:
            _get(base + "/wiki/rocks")
        assert refused.value.code == 401
        assert b"Quartz" not in refused.value.read()
        # The printed URL sets the cookie (urllib keeps it across the redirect).
        jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with jar.open(url, timeout=10) as opened:
            assert opened.status == 200 and b"<html" in opened.read().lower()
        with jar.open(base + "/wiki/rocks", timeout=10) as page:
            assert b"Quartz is hard." in page.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
