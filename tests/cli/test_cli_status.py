"""``embornal status`` (the memory at a glance) and ``embornal doctor`` (each part checked,
what to do about a failure, exit 8 when one fails), locally and in client mode."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlean
from cli_helpers import Run, run_cli
from cli_servers import WIDTH, EmbeddingsHandler, LocalServer

from embornal import Memory
from embornal.interfaces.http.app import create_app
from live_server import live_server


def off() -> dict[str, str]:
    """This test's environment with embeddings off."""
    return {**os.environ, "EMBORNAL_EMBEDDING": "off"}


def _config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(text, encoding="utf-8")


def _checks(result_json: dict[str, object]) -> dict[str, str]:
    rows = result_json["checks"]
    assert isinstance(rows, list)
    return {r["check"]: r["status"] for r in rows}


# -- status -----------------------------------------------------------------------------------


def test_status_of_no_memory_creates_none(cli: Run, embornal_home: Path) -> None:
    r = cli("status")
    assert r.code == 0, r.err
    assert "(no memory yet: the first write creates it)" in r.out
    assert "none on disk" in r.out and "server     none (local mode)" in r.out
    assert not (embornal_home / "memory.db").exists()
    r = cli("--db", str(embornal_home / "other.db"), "--json", "status")
    assert r.code == 0 and r.json()["memory"]["exists"] is False
    assert not (embornal_home / "other.db").exists()


def test_status_counts_what_the_memory_holds(cli: Run, embornal_home: Path) -> None:
    with Memory.open() as mem:
        a = mem.store("/a", "Quartz is a hard mineral.")
        mem.store("/b", "I prefer tea.", kind="preference", attributes={"polarity": "prefers"})
        mem.forget(a.id, reason="wrong")
        mem.remember("I like green tea")
        mem.propose([{"type": "create", "path": "/c", "content": "proposed"}])
        guide = mem.overview().by_state["active"] - 2  # the guide facts of /memory
    r = cli("--json", "status", env=off())
    assert r.code == 0, r.err
    data = r.json()
    assert data["mode"] == "local" and data["memory"]["backend"] == "sqlite"
    assert data["memory"]["size_bytes"] > 0
    assert data["facts"]["by_state"] == {"active": guide + 2, "forgotten": 1}
    assert data["facts"]["by_kind"]["preference"] == 1
    assert data["facts"]["by_stage"]["working"] == 1
    assert data["open_proposals"] == 1 and data["open_conflicts"] == 0
    assert data["embedding"]["state"] == "off"
    assert data["pending_embeddings"] >= 3
    text = cli("status", env=off()).out
    assert f"facts            {guide + 3}: {guide + 2} active, 1 forgotten" in text
    assert "proposals        1 open" in text and "embedding        off" in text


# -- doctor -----------------------------------------------------------------------------------


def test_doctor_on_a_sound_memory_passes(cli: Run, stored: object) -> None:
    with Memory.open() as mem:
        mem.store("/rocks", "Quartz is a hard mineral.")
    r = cli("doctor", env=off())
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert [line.split()[0] for line in lines] == ["ok", "ok", "ok", "ok", "skip"]
    assert "finds a live fact by" in r.out and "embedding.provider is off" in r.out
    r = cli("--json", "doctor", env=off())
    assert r.json()["ok"] is True


def test_doctor_says_what_to_do_when_the_projections_drift(cli: Run, embornal_home: Path) -> None:
    with Memory.open() as mem:
        mem.store("/rocks", "Quartz is a hard mineral.")
    conn = sqlean.connect(str(embornal_home / "memory.db"))
    conn.execute("UPDATE facts SET content = 'tampered' WHERE content LIKE 'Quartz%'")
    conn.commit()
    conn.close()
    r = cli("doctor", env=off())
    assert r.code == 8
    assert "FAIL  log" in r.out and "do: Run `embornal admin rebuild`" in r.out
    assert r.err == "embornal: 1 check failed\n"
    r = cli("--json", "doctor", env=off())
    assert r.code == 8 and r.json()["ok"] is False
    assert _checks(r.json())["log"] == "fail"
    assert cli("admin", "rebuild").code == 0
    assert cli("doctor", env=off()).code == 0  # the advice works


def test_doctor_reports_a_config_that_does_not_parse(cli: Run, embornal_home: Path) -> None:
    _config(embornal_home, "recall:\n  limitt: 5\n")
    r = cli("--json", "doctor")
    assert r.code == 8
    checks = r.json()["checks"]
    assert checks[0]["check"] == "config" and checks[0]["status"] == "fail"
    assert "limitt" in checks[0]["detail"]
    assert {c["status"] for c in checks[1:]} == {"skip"}


def test_doctor_refuses_a_mistyped_db_without_making_it(cli: Run, tmp_path: Path) -> None:
    r = cli("--db", str(tmp_path / "nope.db"), "doctor", env=off())
    assert r.code == 8 and "FAIL  memory" in r.out and "Check --db" in r.out
    assert not (tmp_path / "nope.db").exists()


def test_doctor_loads_the_model_and_embeds(cli: Run, embornal_home: Path) -> None:
    with LocalServer(EmbeddingsHandler) as server:
        config = (
            f"embedding:\n  provider: openai\n  base_url: {server.url}/v1\n"
            f"  model: toy-embed\n  dims: {WIDTH}\n"
        )
        _config(embornal_home, config)
        r = cli("doctor")
        assert r.code == 0, r.out
        assert f"ok    embedding      toy-embed:{WIDTH} loads and embeds" in r.out
        assert "skip  embedding" in cli("doctor", "--no-embed").out
        status = cli("--json", "status").json()["embedding"]
        assert status["provider"] == "openai" and status["state"] == "configured"
    r = cli("--json", "doctor")  # the embeddings server is gone
    assert r.code == 8 and _checks(r.json())["embedding"] == "fail"
    failed = next(c for c in r.json()["checks"] if c["status"] == "fail")
    assert failed["hint"]


# -- client mode ------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    db = tmp_path / "server" / "memory.db"
    db.parent.mkdir()
    memory = Memory.open(db)
    token = memory.token_add("alice").token
    memory.as_subject("alice").propose([{"type": "create", "path": "/x", "content": "y"}])
    try:
        with live_server(create_app(memory, mcp=False, wiki=False)) as url:
            yield url, token
    finally:
        memory.close()


def test_status_and_doctor_in_client_mode_ask_the_server(
    served: tuple[str, str], embornal_home: Path
) -> None:
    url, token = served
    env = {**off(), "EMBORNAL_SERVER_URL": url, "EMBORNAL_TOKEN": token}
    r = run_cli("--json", "status", env=env)
    assert r.code == 0, r.err
    data = r.json()
    assert data["mode"] == "client" and data["server"]["status"] == "ok"
    assert data["open_proposals"] == 1 and "facts" in data["not_reported"]
    text = run_cli("status", env=env).out
    assert "run `embornal status` on the machine that holds it" in text
    r = run_cli("--json", "doctor", env=env)
    assert r.code == 0 and _checks(r.json()) == {
        "config": "ok",
        "server": "ok",
        "token": "ok",
        "memory": "skip",
    }
    r = run_cli("--json", "doctor", env={**env, "EMBORNAL_TOKEN": "emb_wrong"})
    assert r.code == 8 and _checks(r.json())["token"] == "fail"
    assert not (embornal_home / "memory.db").exists()


def test_doctor_in_client_mode_with_the_server_down(embornal_home: Path) -> None:
    env = {**off(), "EMBORNAL_SERVER_URL": "http://127.0.0.1:9", "EMBORNAL_TOKEN": "x"}
    r = run_cli("doctor", env=env)
    assert r.code == 8 and "FAIL  server" in r.out and "do: " in r.out
    r = run_cli("status", env=env)
    assert r.code == 7 and len(r.err.splitlines()) == 1
