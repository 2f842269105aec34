"""Directories, config, the legacy move, admin commands, bootstrap and mcp."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from cli_helpers import EMBORNAL, Run

import embornal


def test_version_and_help(cli: Run) -> None:
    assert cli("--version").out == f"embornal {embornal.__version__}\n"
    r = cli("--help")
    assert r.code == 0
    for line in ("exit codes:", "  3    not found", "  8    verification failed", "  130  "):
        assert line in r.out


def test_config_path_under_embornal_home(cli: Run, embornal_home: Path) -> None:
    r = cli("config", "path")
    assert r.code == 0
    assert f"config dir   {embornal_home}\n" in r.out
    assert f"db file      {embornal_home / 'memory.db'}\n" in r.out
    places = cli("config", "path", "--json", "--db", "/tmp/other.db").json()
    assert places == {
        "config_dir": str(embornal_home),
        "data_dir": str(embornal_home),
        "cache_dir": str(embornal_home),
        "config_file": str(embornal_home / "config.yaml"),
        "db_file": "/tmp/other.db",
    }
    assert not (embornal_home / "memory.db").exists()


def test_config_show(cli: Run, embornal_home: Path) -> None:
    r = cli("config", "show")
    assert r.code == 0
    assert "(missing: defaults)" in r.out and "recall:\n  limit: 10\n" in r.out
    embornal_home.mkdir(parents=True, exist_ok=True)
    (embornal_home / "config.yaml").write_text("server:\n  token: s3cret\n", encoding="utf-8")
    shown = cli("--json", "config", "show").json()
    assert shown["recall"] == {"limit": 10} and shown["server"]["token"] == "********"
    assert shown["embedding"]["provider"] == "auto"


def test_legacy_database_moves_on_first_command(cli: Run, embornal_home: Path) -> None:
    legacy = Path(os.environ["HOME"]) / ".embornal"
    old_db = legacy / "memory.db"
    r = cli("--db", str(old_db), "memory", "store", "/old", "Zanzibar quartz.")
    assert r.code == 0 and old_db.exists()
    (legacy / "model.onnx").write_bytes(b"weights")

    r = cli("memory", "recall", "zanzibar", "--plain")
    assert r.code == 0
    assert r.err == f"embornal: moved ~/.embornal/memory.db to {embornal_home / 'memory.db'}\n"
    assert r.out == "/old\tZanzibar quartz.\n"
    assert not old_db.exists() and (legacy / "model.onnx").exists()
    assert cli("memory", "ls", "/old").err == ""  # moved once, quiet after


def test_admin_migrate_rebuild_verify(cli: Run, tmp_path: Path) -> None:
    db = tmp_path / "admin.db"
    r = cli("--db", str(db), "admin", "migrate")
    assert r.code == 0 and r.out.startswith(f"created {db}: applied 0001_initial, ")
    assert cli("--db", str(db), "memory", "store", "/a", "One.").code == 0
    assert "is up to date" in cli("--db", str(db), "admin", "migrate").out
    r = cli("--db", str(db), "admin", "rebuild", "--json")
    assert r.code == 0 and r.json()["events_replayed"] >= 9
    r = cli("--db", str(db), "admin", "verify")
    assert (r.code, r.out) == (0, "projections match the event log\n")
    assert cli("admin", "verify", "--json", "--db", str(db)).json() == {
        "ok": True,
        "differences": [],
    }


def test_admin_verify_reports_differences(cli: Run, tmp_path: Path) -> None:
    db = tmp_path / "tampered.db"
    assert cli("--db", str(db), "memory", "store", "/a", "Original.").code == 0
    with sqlite3.connect(db) as conn:  # change a projection behind the log's back
        conn.execute("UPDATE facts SET recall_count = 42 WHERE owner = 'default'")
    r = cli("--db", str(db), "admin", "verify")
    assert r.code == 8
    assert r.out.startswith("facts: ")
    assert "differ from the event log" in r.err and "admin rebuild" in r.err
    data = cli("--db", str(db), "--json", "admin", "verify").json()
    assert data["error"] == "verification_failed" and data["details"][0].startswith("facts:")
    assert cli("--db", str(db), "admin", "rebuild").code == 0
    assert cli("--db", str(db), "admin", "verify").code == 0


def test_a_read_refuses_a_db_that_holds_no_memory(cli: Run, tmp_path: Path) -> None:
    """A mistyped --db is not made a new memory by a command that only reads (exit 3); a
    command that writes makes it (issue 26, defect 17)."""
    typo = tmp_path / "typo" / "memroy.db"
    for args in (("memory", "recall", "x"), ("memory", "ls"), ("admin", "verify")):
        r = cli("--db", str(typo), *args)
        assert r.code == 3, (args, r)
        assert r.err == (
            f"embornal: no memory at {typo} (hint: Check the path; a command that writes "
            f"creates one there, e.g. `embornal --db {typo} admin migrate`.)\n"
        )
        assert r.out == ""
    assert cli("--db", str(typo), "--json", "memory", "show", "01ABC").json()["error"] == (
        "not_found"
    )
    assert not typo.parent.exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    assert cli("--db", str(empty), "memory", "cat", "/a").code == 3
    assert empty.stat().st_size == 0
    assert cli("--db", str(typo), "memory", "store", "/a", "Zanzibar quartz.").code == 0
    r = cli("--db", str(typo), "memory", "recall", "zanzibar", "--plain")
    assert (r.code, r.out) == (0, "/a\tZanzibar quartz.\n")


def test_the_default_memory_is_made_on_first_use_even_by_a_read(
    cli: Run, embornal_home: Path
) -> None:
    r = cli("memory", "recall", "zanzibar")
    assert r.code == 0 and (embornal_home / "memory.db").is_file()


def test_bootstrap_touches_no_file(cli: Run, embornal_home: Path) -> None:
    home = Path(os.environ["HOME"])
    r = cli("bootstrap")
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("## Memory (embornal)\n")
    for needle in ("memory recall", "memory store", "supersede", "forget", "embornal mcp"):
        assert needle in r.out
    assert cli("bootstrap", "--json").json()["markdown"] == r.out
    guide = cli("bootstrap", "--guide")
    assert guide.code == 0 and guide.out.startswith("# Memory as history")
    assert "promote(memory_id, reason)" in guide.out and "记住" in guide.out
    assert cli("bootstrap", "--guide", "--json").json()["markdown"] == guide.out
    assert not embornal_home.exists()
    assert list(home.iterdir()) == []


def test_usage_and_storage_errors(cli: Run, tmp_path: Path) -> None:
    r = cli("memory", "recall", "--limit", "many")
    assert r.code == 2 and "--limit must be a whole number from 1 to 1000" in r.err
    assert r.out == "" and r.err.count("\n") == 1
    r = cli("memory", "frobnicate", "--json")
    assert r.code == 2 and r.json()["error"] == "usage"
    assert cli().code == 2
    r = cli("--as-subject", "two words", "memory", "ls")
    assert r.code == 2 and "subject" in r.err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    r = cli("--db", str(junk), "memory", "ls")
    assert r.code == 7 and r.err.startswith("embornal: ") and r.err.count("\n") == 1
    r = cli("--json", "memory", "ls", env={**os.environ, "EMBORNAL_HOME": "relative/dir"})
    assert r.code == 6 and r.json()["error"] == "config_error"


def test_broken_pipe_exits_quietly(cli: Run, stored: object) -> None:
    for i in range(3):
        assert cli("memory", "store", f"/bulk/n{i}", "x " * 2000).code == 0
    proc = subprocess.Popen(
        [str(EMBORNAL), "memory", "recall", "--plain"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the first byte
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0
    assert err == ""


@pytest.mark.skipif(
    importlib.util.find_spec("embornal.interfaces.mcp.server") is None,
    reason="the MCP server module is not there yet",
)
def test_mcp_serves_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "cli-test", "version": "0"},
        },
    }
    proc = subprocess.run(
        [str(EMBORNAL), "--db", str(db), "mcp", "--profile", "core"],
        input=(json.dumps(hello) + "\n").encode(),
        capture_output=True,
        env=os.environ.copy(),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    first = json.loads(proc.stdout.decode().splitlines()[0])
    assert first["id"] == 1 and "serverInfo" in first["result"]
    assert db.exists()


@pytest.mark.parametrize(
    ("env", "args", "wanted"),
    [
        ({}, (), "core"),
        ({"EMBORNAL_MCP_TOOLS": "full"}, (), "full"),
        ({"EMBORNAL_MCP_TOOLS": "full"}, ("--profile", "core"), "core"),
    ],
)
def test_mcp_offers_the_profile_of_the_environment_unless_told(
    tmp_path: Path, env: dict[str, str], args: tuple[str, ...], wanted: str
) -> None:
    """EMBORNAL_MCP_TOOLS (or mcp.tools) switches the tool list at the next start; the
    flag wins over both (decision 0093)."""
    calls = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "cli-test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    proc = subprocess.run(
        [str(EMBORNAL), "--db", str(tmp_path / "m.db"), "mcp", *args],
        input="".join(json.dumps(c) + "\n" for c in calls).encode(),
        capture_output=True,
        env={**os.environ, "EMBORNAL_HOME": str(tmp_path / "home"), **env},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    (listed,) = [m for m in map(json.loads, proc.stdout.decode().splitlines()) if m.get("id") == 2]
    names = {t["name"] for t in listed["result"]["tools"]}
    assert ("ls" in names) is (wanted == "full") and {"remember", "pin", "recall"} <= names
