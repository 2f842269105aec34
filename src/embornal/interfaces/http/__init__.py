"""The HTTP interface: REST under ``/api/v1``, MCP over streamable HTTP at ``/mcp``,
and the wiki pages at ``/``, for ``embornal serve`` and ``embornal memory wiki``.

Light to import: Starlette, uvicorn and the MCP SDK load only when one of these
functions is first used, so the CLI can import this package at no cost.

>>> from embornal.interfaces.http import run_server     # doctest: +SKIP
>>> run_server(db_path=None, bind="127.0.0.1", port=1338)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.lazy import exports

if TYPE_CHECKING:
    from embornal.interfaces.http.app import create_app, create_local_wiki_app
    from embornal.interfaces.http.server import run_server, run_wiki

__all__ = ["create_app", "create_local_wiki_app", "run_server", "run_wiki"]

__getattr__, __dir__ = exports(
    __name__,
    {
        "create_app": ".app",
        "create_local_wiki_app": ".app",
        "run_server": ".server",
        "run_wiki": ".server",
    },
)
