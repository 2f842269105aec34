"""``embornal serve`` (REST, MCP over HTTP and the wiki, with tokens) and
``embornal memory wiki`` (the wiki pages on loopback, opened with the key it prints).

Both run until Ctrl-C or SIGTERM. Serving on anything but loopback is an
explicit choice: only ``--bind`` given on the command line reaches the network,
and then only when a token exists, with a warning on stderr.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from embornal.errors import ConfigError, InvalidInput
from embornal.interfaces.cli.app import Context

__all__ = ["serve", "wiki"]

DEFAULT_BIND = "127.0.0.1"
_URL = re.compile(r"https?://\S+")


@contextmanager
def _server_libraries() -> Iterator[None]:
    """Turn a missing Starlette or uvicorn (imported when the server starts) into exit 6."""
    try:
        yield
    except ModuleNotFoundError as e:
        raise ConfigError(
            f"the HTTP server is not available: {e}",
            hint="Reinstall embornal with its default dependencies (starlette, uvicorn).",
        ) from e


def _announce(ctx: Context) -> Callable[[str], None]:
    """Print a server's start-up lines now (flushed); with --json, one object a line."""

    def say(line: str) -> None:
        if ctx.json:
            found = _URL.search(line)
            data = {"message": line, "url": found.group(0) if found else None}
            ctx.out.write(json.dumps(data, ensure_ascii=False) + "\n")
        else:
            from embornal.interfaces.cli.render import escape_controls

            ctx.out.write(escape_controls(line, keep="") + "\n")
        ctx.out.flush()

    return say


def _only_default_subject(ctx: Context, command: str, why: str) -> None:
    if ctx.subject != "default":
        raise InvalidInput(f"{command} does not take --as-subject: {why}", hint="Drop it.")


def wiki(ctx: Context) -> int:
    """The wiki pages of the memory on 127.0.0.1, as the subject ``default``."""
    _only_default_subject(
        ctx,
        "memory wiki",
        "the local wiki shows the memory as the subject default; "
        "`embornal serve` shows it to each token's subject",
    )
    ctx.prepare()
    _ = ctx.config  # a broken config.yaml stops here, before the port opens
    from embornal.interfaces.http.server import run_wiki

    with _server_libraries():
        run_wiki(db_path=str(ctx.db_path), port=ctx.opt("port"), announce=_announce(ctx))
    return 0


def serve(ctx: Context) -> int:
    """REST, MCP and the wiki on one port; every request needs a token."""
    _only_default_subject(ctx, "serve", "each request acts as the subject of its token")
    given: str | None = ctx.opt("bind")
    bind = given.strip() if given else DEFAULT_BIND
    from embornal.interfaces.http.server import is_loopback, run_server

    loopback = is_loopback(bind)
    with ctx.open_memory() as mem:
        active = len(mem.tokens())
    if not loopback:
        if active == 0:
            raise InvalidInput(
                f"refusing to serve on {bind}: there is no active token, so the network "
                "would reach a server nobody can use",
                hint="Issue one first with `embornal token add SUBJECT`.",
            )
        ctx.note(
            f"warning: serving on {bind}: the memory is reachable from the network, "
            "for holders of a token only; tokens travel in clear over plain HTTP, "
            "so put TLS in front of it"
        )
    elif active == 0:
        ctx.note("warning: there is no active token yet; `embornal token add SUBJECT` makes one")
    settings = ctx.memory_settings(ctx.embedder(strict=False).provider)
    with _server_libraries():
        run_server(
            db_path=str(ctx.db_path),
            bind=bind,
            port=ctx.opt("port"),
            allow_remote=given is not None and not loopback,
            mcp_profile=ctx.opt("mcp_profile", None) or ctx.config.mcp.tools,
            announce=_announce(ctx),
            **settings,
        )
    return 0
