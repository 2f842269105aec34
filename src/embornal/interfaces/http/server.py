"""Running the applications under uvicorn: ``run_server`` (``embornal serve``) and
``run_wiki`` (``embornal memory wiki``).

Both bind the socket before they print the URL, so the URL is the one that works
(port 0 picks a free port) and a port in use fails with a clear error.
"""

from __future__ import annotations

import ipaddress
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Unpack

from embornal.errors import ConfigError, InvalidInput
from embornal.service.memory import Memory

if TYPE_CHECKING:
    from embornal.interfaces.api import MemorySettings

__all__ = ["is_loopback", "run_server", "run_wiki"]


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise InvalidInput(f"port must be from 0 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as e:
        raise InvalidInput(f"cannot bind to {host!r}: {e}") from e
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {e.strerror or e}",
            hint="Choose another port with --port (0 picks a free one).",
        ) from e
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _serve(app: Any, sock: socket.socket, *, log_level: str, access_log: bool) -> None:
    """Serve until Ctrl-C or SIGTERM; uvicorn shuts down gracefully, then this returns.

    (uvicorn raises the signal again once it has stopped; here that ends the call
    normally, so the caller closes the memory and the CLI exits 0.)
    """
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level=log_level,
        access_log=access_log,
        lifespan="on",
        server_header=False,
        proxy_headers=False,
    )
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None) if main else None
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def run_server(
    *,
    db_path: str | None,
    bind: str = "127.0.0.1",
    port: int = 1338,
    allow_remote: bool = False,
    mcp_profile: str = "core",
    max_body_bytes: int = 1_048_576,
    log_level: str = "warning",
    access_log: bool = False,
    announce: Callable[[str], None] | None = None,
    **settings: Unpack[MemorySettings],
) -> None:
    """Serve the memory at ``db_path`` (None: the default data dir) until interrupted.

    ``settings``: what the memory is opened with; its ``embedder`` (the configured model)
    turns on recall by meaning over REST and MCP, its ``reranker`` (loaded on first use)
    recall with ``rerank``.

    A bind that is not loopback is refused unless ``allow_remote`` (the CLI passes it
    for an explicit ``--bind``): the tokens travel in clear over plain HTTP, so put
    TLS in front of a server that other machines reach.
    """
    from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app

    loopback = is_loopback(bind)
    if not loopback and not allow_remote:
        raise InvalidInput(
            f"refusing to serve on {bind}: it is reachable from other machines",
            hint="Give --bind explicitly to serve on the network (put TLS in front of it).",
        )
    say = announce or (lambda line: print(line, file=sys.stdout, flush=True))
    sock = _bind(bind, port)
    try:
        # db_path as given: a postgresql:// URL made a Path loses a slash and names a file
        with Memory.open(db_path, **settings) as memory:
            app = create_app(
                memory,
                max_body_bytes=max_body_bytes,
                mcp_profile=mcp_profile,
                allowed_hosts=LOOPBACK_HOSTS if loopback else None,
            )
            url = _url(sock)
            say(f"embornal serve: {url}/  (REST {url}/api/v1, MCP {url}/mcp)")
            say(f"memory: {memory.db_path}")
            _serve(app, sock, log_level=log_level, access_log=access_log)
    finally:
        sock.close()


def run_wiki(
    *,
    db_path: str | None,
    port: int = 1337,
    log_level: str = "warning",
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve the wiki pages of the memory at ``db_path`` on 127.0.0.1; the URL it prints
    (once) holds the key every request needs (decision 0135)."""
    from embornal.interfaces.http.app import create_local_wiki_app

    say = announce or (lambda line: print(line, file=sys.stdout, flush=True))
    sock = _bind("127.0.0.1", port)
    try:
        with Memory.open(db_path) as memory:
            app = create_local_wiki_app(memory)
            key = app.state.wiki_key
            say(f"embornal wiki: {_url(sock)}/?key={key}  (memory {memory.db_path})")
            _serve(app, sock, log_level=log_level, access_log=False)
    finally:
        sock.close()
