"""``embornal mcp install CLIENT``: the client's config gets an ``embornal`` server with the
absolute command and an ``env`` block, merged into what is there, shown before it is
written (decision 0144). Every test writes under its temp dir (``--config``, ``HOME``)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from tests.cli.cli_helpers import EMBORNAL, Run

from embornal.adapters.mcp_clients import CLIENTS, config_path

ABSOLUTE = str(EMBORNAL.resolve())


def _servers(client: str, path: Path) -> dict[str, dict[str, object]]:
    text = path.read_text(encoding="utf-8")
    if client == "codex":
        servers: dict[str, dict[str, object]] = tomllib.loads(text)["mcp_servers"]
        return servers
    servers = json.loads(text)["mcpServers"]
    return servers


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_gets_the_absolute_command_args_and_env(
    cli: Run, tmp_path: Path, embornal_home: Path, client: str
) -> None:
    path = tmp_path / ("config.toml" if client == "codex" else "config.json")
    r = cli("mcp", "install", client, "--profile", "full", "--config", str(path), "--yes")
    assert r.code == 0, r.err
    assert f"wrote {path}" in r.out and "+" in r.out  # the change is shown
    entry = _servers(client, path)["embornal"]
    assert entry["command"] == ABSOLUTE and Path(ABSOLUTE).is_absolute()
    assert entry["args"] == ["mcp", "--profile", "full"]
    assert entry["env"] == {"EMBORNAL_HOME": str(embornal_home)}
    assert (entry.get("type") == "stdio") is (client == "claude-code")


def test_the_profile_variable_of_the_shell_is_carried_when_no_profile_is_given(
    cli: Run, tmp_path: Path, embornal_home: Path
) -> None:
    import os

    path = tmp_path / "mcp.json"
    env = {**os.environ, "EMBORNAL_MCP_TOOLS": "full"}
    r = cli("mcp", "install", "cursor", "--config", str(path), "--yes", env=env)
    assert r.code == 0, r.err
    entry = _servers("cursor", path)["embornal"]
    assert entry["args"] == ["mcp"]
    assert entry["env"] == {"EMBORNAL_HOME": str(embornal_home), "EMBORNAL_MCP_TOOLS": "full"}


def test_a_json_config_is_merged_keeping_other_servers_and_settings(
    cli: Run, tmp_path: Path
) -> None:
    path = tmp_path / "claude_desktop_config.json"
    other = {"command": "npx", "args": ["-y", "other"], "env": {"TOKEN": "t"}}
    old = {"mcpServers": {"other": other, "embornal": {"command": "embornal"}}, "theme": "dark"}
    path.write_text(json.dumps(old), encoding="utf-8")
    assert cli("mcp", "install", "claude-desktop", "--config", str(path), "--yes").code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["theme"] == "dark" and data["mcpServers"]["other"] == other
    assert data["mcpServers"]["embornal"]["command"] == ABSOLUTE
    again = cli("mcp", "install", "claude-desktop", "--config", str(path), "--yes")
    assert again.code == 0 and "nothing to write" in again.out


def test_a_toml_config_is_merged_keeping_every_other_line(cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    old = (
        '# my settings\nmodel = "o3"\n\n[mcp_servers.embornal]\ncommand = "embornal"\n\n'
        '[mcp_servers.embornal.env]\nX = "1"\n\n[mcp_servers.other]\ncommand = "y"\n'
    )
    path.write_text(old, encoding="utf-8")
    assert cli("mcp", "install", "codex", "--config", str(path), "--yes").code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# my settings\nmodel = "o3"\n')
    data = tomllib.loads(text)
    assert data["model"] == "o3" and data["mcp_servers"]["other"] == {"command": "y"}
    assert data["mcp_servers"]["embornal"]["command"] == ABSOLUTE
    assert "X" not in data["mcp_servers"]["embornal"]["env"]
    assert text.count("[mcp_servers.embornal]") == 1


@pytest.mark.parametrize(
    ("client", "text"),
    [
        ("cursor", '{"mcpServers": {'),
        ("cursor", '{"mcpServers": []}'),
        ("claude-code", "[1, 2]"),
        ("codex", "[mcp_servers\ncommand = 1\n"),
    ],
)
def test_a_malformed_config_is_refused_in_one_line_and_left_untouched(
    cli: Run, tmp_path: Path, client: str, text: str
) -> None:
    path = tmp_path / "config"
    path.write_text(text, encoding="utf-8")
    r = cli("mcp", "install", client, "--config", str(path), "--yes")
    assert r.code == 6 and r.err.count("\n") == 1, r.err
    assert str(path) in r.err and "nothing was written" in r.err
    assert path.read_text(encoding="utf-8") == text


def test_dry_run_prints_the_change_and_writes_nothing(cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    for flag in ("--dry-run", "--print"):
        r = cli("mcp", "install", "cursor", "--config", str(path), flag)
        assert r.code == 0 and "not written" in r.out
        assert f'+      "command": "{ABSOLUTE}",' in r.out
        assert not path.exists()
    r = cli("--json", "mcp", "install", "cursor", "--config", str(path), "--dry-run")
    got = r.json()
    assert got["written"] is False and got["changed"] is True
    assert got["entry"]["command"] == ABSOLUTE and got["diff"].startswith("--- /dev/null")
    assert not path.exists()


def test_without_yes_or_a_terminal_nothing_is_written(cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{}", encoding="utf-8")
    r = cli("mcp", "install", "cursor", "--config", str(path))
    assert r.code == 2 and "--yes" in r.err
    assert "+" in r.out  # the change was shown before the question
    assert path.read_text(encoding="utf-8") == "{}"


def test_each_client_has_its_own_default_file() -> None:
    home, env = Path("/h"), {"APPDATA": "/a", "CODEX_HOME": "/c"}
    assert config_path("claude-code", {}, home, "linux") == home / ".claude.json"
    assert config_path("cursor", {}, home, "linux") == home / ".cursor/mcp.json"
    assert config_path("codex", {}, home, "linux") == home / ".codex/config.toml"
    assert config_path("codex", env, home, "linux") == Path("/c/config.toml")
    desktop = "claude_desktop_config.json"
    assert config_path("claude-desktop", {}, home, "darwin") == (
        home / "Library/Application Support/Claude" / desktop
    )
    assert config_path("claude-desktop", env, home, "win32") == Path("/a/Claude") / desktop
    assert config_path("claude-desktop", {}, home, "linux") == home / ".config/Claude" / desktop


def test_the_default_file_is_under_home(cli: Run, tmp_path: Path) -> None:
    r = cli("mcp", "install", "cursor", "--yes")
    assert r.code == 0, r.err
    written = tmp_path / "home" / ".cursor" / "mcp.json"
    assert _servers("cursor", written)["embornal"]["command"] == ABSOLUTE
