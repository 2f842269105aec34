"""The environment variables of client mode (they win over server.url and the token settings),
in one place: the app and the remote client both read them."""

from __future__ import annotations

__all__ = ["SERVER_URL_ENV", "TOKEN_ENV"]

SERVER_URL_ENV = "EMBORNAL_SERVER_URL"
TOKEN_ENV = "EMBORNAL_TOKEN"
