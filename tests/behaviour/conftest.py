"""The behaviour suite runs each test on both sides and both backends: a local ``Memory``
and the remote client over the in-process REST app (Starlette's test client, an httpx
transport: no socket), each over a SQLite file and over a fresh PostgreSQL database of the
session's embedded server (:mod:`pg_server`). Both sides are used as
:class:`~embornal.interfaces.api.MemoryAPI`. The PostgreSQL half is marked ``postgresql``
(``-m postgresql`` runs it alone, ``-m 'not postgresql'`` leaves it out)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli.remote import RemoteMemory, Transport
from embornal.interfaces.http.app import create_app
from pg_server import fresh_url

Open = Callable[[str], MemoryAPI]


def asgi_transport(client: TestClient) -> Transport:
    def send(
        method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
    ) -> tuple[int, str, Mapping[str, str], bytes]:
        r = client.request(method, url, headers=dict(headers), content=body)
        return r.status_code, r.reason_phrase, dict(r.headers), r.content

    return send


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def memory(
    backend: str, request: pytest.FixtureRequest, db_path: Path, clock: FixedClock
) -> Iterator[Memory]:
    """The memory under test: a SQLite file, or a fresh PostgreSQL database."""
    target = db_path if backend == "sqlite" else fresh_url(request)
    mem = Memory.open(target, clock=clock)
    yield mem
    mem.close()


@pytest.fixture(params=["local", "remote"])
def side(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_as(side: str, memory: Memory) -> Iterator[Open]:
    """``open_as(subject)``: the memory as ``subject`` sees it, on this side."""
    tokens = {who: memory.token_add(who).token for who in ("alice", "bob")}
    if side == "local":
        yield lambda who: memory.as_subject(who)
        return
    with TestClient(create_app(memory, mcp=False, wiki=False)) as client:
        transport = asgi_transport(client)
        yield lambda who: RemoteMemory.connect(
            "http://testserver", tokens[who], transport=transport
        )


@pytest.fixture
def alice(open_as: Open) -> MemoryAPI:
    return open_as("alice")


@pytest.fixture
def bob(open_as: Open) -> MemoryAPI:
    return open_as("bob")
