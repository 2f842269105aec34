"""Where MCP clients keep their server list, and how ``embornal mcp`` is written into it.

``embornal mcp install CLIENT`` (decision 0144) writes one entry, ``embornal``, into the
client's configuration file and keeps every other entry and setting:

* ``claude-code``: ``~/.claude.json`` (the user scope, every project), ``mcpServers``;
  ``--config .mcp.json`` writes a project's file instead;
* ``claude-desktop``: ``claude_desktop_config.json`` in the platform's config dir
  (``~/Library/Application Support/Claude``, ``%APPDATA%\\Claude``, ``~/.config/Claude``),
  ``mcpServers``;
* ``cursor``: ``~/.cursor/mcp.json``, ``mcpServers``;
* ``codex``: ``$CODEX_HOME/config.toml`` (``~/.codex/config.toml``), the table
  ``[mcp_servers.embornal]``.

A client starts its servers with a minimal environment and its own ``PATH``: the entry
names the absolute path of the executable and carries ``EMBORNAL_HOME`` (and the profile
variable) in its ``env``. The functions here are pure: text in, text out; reading and
writing the file is the command's.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from embornal.errors import ConfigError

__all__ = [
    "CLIENTS",
    "SERVER_NAME",
    "ServerEntry",
    "config_path",
    "merged",
]

CLIENTS = ("claude-code", "claude-desktop", "cursor", "codex")
SERVER_NAME = "embornal"


@dataclass(frozen=True)
class ServerEntry:
    """How a client starts the server: the command, its arguments, its environment."""

    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]

    def as_json(self, client: str) -> dict[str, Any]:
        entry: dict[str, Any] = {"command": self.command, "args": list(self.args)}
        if client == "claude-code":
            entry = {"type": "stdio", **entry}
        entry["env"] = dict(self.env)
        return entry


def config_path(client: str, env: Mapping[str, str], home: Path, platform: str) -> Path:
    """The user-wide configuration file of ``client`` (``platform``: ``sys.platform``)."""
    if client == "claude-code":
        return home / ".claude.json"
    if client == "cursor":
        return home / ".cursor" / "mcp.json"
    if client == "codex":
        codex_home = env.get("CODEX_HOME")
        return (Path(codex_home) if codex_home else home / ".codex") / "config.toml"
    if client == "claude-desktop":
        name = "claude_desktop_config.json"
        if platform == "darwin":
            return home / "Library" / "Application Support" / "Claude" / name
        if platform.startswith("win"):
            appdata = env.get("APPDATA")
            return (Path(appdata) if appdata else home / "AppData" / "Roaming") / "Claude" / name
        xdg = env.get("XDG_CONFIG_HOME")
        return (Path(xdg) if xdg else home / ".config") / "Claude" / name
    raise ConfigError(f"unknown MCP client {client!r}", hint=f"Use one of: {', '.join(CLIENTS)}.")


def default_path(client: str) -> Path:
    """:func:`config_path` on this machine."""
    return config_path(client, os.environ, Path.home(), sys.platform)


def merged(client: str, path: Path, old: str | None, entry: ServerEntry) -> str:
    """The configuration text ``old`` (None: no file yet) with the ``embornal`` entry set
    to ``entry``, everything else kept; raises :class:`ConfigError` for a malformed file."""
    if client == "codex":
        return _merged_toml(path, old or "", entry)
    data: Any = {} if old is None or not old.strip() else _json_of(path, old)
    if not isinstance(data, dict):
        raise _malformed(path, "its top level is not a JSON object")
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise _malformed(path, "its mcpServers is not a JSON object")
    servers[SERVER_NAME] = entry.as_json(client)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _malformed(path: Path, why: str) -> ConfigError:
    return ConfigError(
        f"{path} is not a configuration embornal can merge into: {why}",
        hint="Fix the file (nothing was written), or name another with --config PATH.",
    )


def _json_of(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:
        raise _malformed(path, f"invalid JSON ({e})") from None


_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_OURS = re.compile(r'^mcp_servers\s*\.\s*(?:embornal|"embornal")(?:\s*\..*)?$')


def _merged_toml(path: Path, old: str, entry: ServerEntry) -> str:
    """``old`` with its tables ``[mcp_servers.embornal]`` and ``[mcp_servers.embornal.*]``
    replaced by ``entry`` (written at the end); every other line kept as written."""
    try:
        parsed = tomllib.loads(old)
    except tomllib.TOMLDecodeError as e:
        raise _malformed(path, f"invalid TOML ({e})") from None
    servers = parsed.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise _malformed(path, "its mcp_servers is not a table")
    if SERVER_NAME in servers and not _in_own_tables(old):
        raise _malformed(path, "its embornal server is not written as [mcp_servers.embornal]")
    kept: list[str] = []
    ours = False
    for line in old.splitlines():
        table = _TABLE.match(line)
        if table:
            ours = bool(_OURS.match(table.group(1)))
        if not ours:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    block = [
        f"[mcp_servers.{SERVER_NAME}]",
        f"command = {_toml_str(entry.command)}",
        "args = [" + ", ".join(_toml_str(a) for a in entry.args) + "]",
        "",
        f"[mcp_servers.{SERVER_NAME}.env]",
        *(f"{_toml_key(k)} = {_toml_str(v)}" for k, v in entry.env.items()),
    ]
    text = "\n".join([*kept, *([""] if kept else []), *block]) + "\n"
    tomllib.loads(text)  # what is written reads back
    return text


def _in_own_tables(text: str) -> bool:
    return any((m := _TABLE.match(line)) and _OURS.match(m.group(1)) for line in text.splitlines())


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_str(key)
