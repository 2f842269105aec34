"""Client mode's configuration: the server's base URL and the bearer token, and the
refusal of what it cannot do (:class:`LocalOnly`).

:mod:`embornal.interfaces.cli.remote` re-exports them (``base_url``, ``read_token``,
``LocalOnly``, ``local_only``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from embornal.errors import ConfigError, InvalidInput
from embornal.interfaces.cli.envvars import TOKEN_ENV

if TYPE_CHECKING:
    from embornal.adapters.config import ServerConfig

__all__ = ["API_PREFIX", "CLIENT_MODE", "LocalOnly", "base_url", "local_only", "read_token"]

API_PREFIX = "/api/v1"
CLIENT_MODE = "client mode: server.url is set"


class LocalOnly(InvalidInput):
    """A command (or an option) that client mode cannot carry out; exit 2."""

    code = "local_only"
    default_hint = "Run it on the machine that holds the memory, or pass --db PATH."


def local_only(what: str, hint: str | None = None) -> LocalOnly:
    return LocalOnly(f"{what} runs on the machine that holds the memory ({CLIENT_MODE})", hint=hint)


def base_url(raw: str) -> str:
    """``server.url`` as the base of every route: no trailing ``/`` nor ``/api/v1``."""
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ConfigError(
            f"server.url must be an http:// or https:// address, not {raw!r}",
            hint="Give the address `embornal serve` printed, e.g. http://127.0.0.1:1338.",
        )
    path = parts.path.rstrip("/").removesuffix(API_PREFIX).rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


def _checked(token: str, where: str) -> str:
    token = token.strip()
    if not token:
        raise ConfigError(f"{where} is empty", hint="Put the token of `embornal token add` there.")
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        raise ConfigError(
            f"{where} holds a space, a line break or a control character inside the token",
            hint="Keep the token alone on one line.",
        )
    return token


def read_token(server: ServerConfig, config_dir: Path, env: Mapping[str, str]) -> str:
    """The bearer token: ``EMBORNAL_TOKEN``, else ``server.token``, else ``server.token_file``.

    A relative ``token_file`` is read from the config dir.
    """
    if env.get(TOKEN_ENV, "").strip():
        return _checked(env[TOKEN_ENV], TOKEN_ENV)
    if server.token is not None and server.token_file is not None:
        raise ConfigError(
            "server.token and server.token_file are both set",
            hint="Keep one of them (token_file keeps the token out of config.yaml).",
        )
    if server.token is not None:
        return _checked(server.token, "server.token")
    if server.token_file is not None:
        path = Path(server.token_file).expanduser()
        path = path if path.is_absolute() else config_dir / path
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise ConfigError(
                f"cannot read server.token_file {path}: {reason}",
                hint="Make it a readable UTF-8 file that holds the token.",
            ) from e
        return _checked(text, f"server.token_file {path}")
    raise ConfigError(
        f"client mode needs a token: server.url is set but no server.token_file, "
        f"server.token or {TOKEN_ENV}",
        hint="Run `embornal token add SUBJECT` where the memory is, save the token in a "
        "file and set server.token_file to it.",
    )
