"""Client mode: with ``server.url`` set, the memory commands talk to ``embornal serve``.

One real server (the REST app under uvicorn, on 127.0.0.1, in a thread) serves the
module; the real console script runs in a subprocess with a config.yaml that names
it. The local command line run with ``--db`` on the server's own database is the
reference: client mode prints the same text and the same JSON.
"""

from __future__ import annotations

import json
import os
import re
import socket
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Result, run_cli

from embornal import Memory
from embornal.interfaces.http.app import create_app
from live_server import live_server

REFUSAL = "runs on the machine that holds the memory (client mode: server.url is set)"


@dataclass(frozen=True)
class Server:
    url: str
    db: Path
    alice: str
    bob: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The REST API over one memory, with a token for alice and one for bob."""
    db = tmp_path_factory.mktemp("server") / "memory.db"
    memory = Memory.open(db)
    alice, bob = (memory.token_add(who).token for who in ("alice", "bob"))
    try:
        with live_server(create_app(memory, mcp=False, wiki=False)) as url:
            yield Server(url, db, alice, bob)
    finally:
        memory.close()


def configure(home: Path, server: str | None, **keys: str) -> None:
    """Write config.yaml into this test's EMBORNAL_HOME: ``server:`` with ``keys``."""
    home.mkdir(parents=True, exist_ok=True)
    lines = ["embedding:", '  provider: "off"']
    if server is not None or keys:
        lines.append("server:")
        if server is not None:
            lines.append(f"  url: {json.dumps(server)}")
        lines += [f"  {key}: {json.dumps(value)}" for key, value in keys.items()]
    (home / "config.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def cli(*args: str, stdin: str | None = None, **env: str) -> Result:
    full = {**os.environ, "EMBORNAL_EMBEDDING": "off", **env}
    return run_cli(*args, stdin=stdin, env=full)


def one_line(result: Result) -> str:
    """The single line of stderr (an error is one line, never a traceback)."""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("embornal: ")
    return lines[0]


@pytest.fixture
def alice(server: Server, embornal_home: Path) -> Server:
    """This test's home is a client of the server, with alice's token in config.yaml."""
    configure(embornal_home, server.url, token=server.alice)
    return server


def local(server: Server, *args: str) -> Result:
    """The same command run locally on the server's database, as alice."""
    return cli("--db", str(server.db), "--as-subject", "alice", *args)


def stored_id(result: Result, path: str) -> str:
    assert result.code == 0, result.err
    found = re.fullmatch(rf"([0-9A-Z]{{26}}) {re.escape(path)}\n", result.out)
    assert found, result.out
    return found.group(1)


def without(data: Any, key: str) -> Any:
    """``data`` with every ``key`` (a number computed at read time) taken out."""
    if isinstance(data, dict):
        return {k: without(v, key) for k, v in data.items() if k != key}
    if isinstance(data, list):
        return [without(v, key) for v in data]
    return data


# --------------------------------------------------------------------------- same output


def test_the_memory_commands_print_what_local_mode_prints(alice: Server) -> None:
    first = stored_id(
        cli("memory", "store", "/rt/embornal", "The build uses uv.", "--tag", "status=decided"),
        "/rt/embornal",
    )
    second = stored_id(
        cli("memory", "store", "/rt/embornal/cli", "-", stdin="Client mode: see [[/rt/embornal]]."),
        "/rt/embornal/cli",
    )

    hits = cli("memory", "recall", "uv", "--under", "/rt", "--meta", "--scores", "--explain")
    assert hits.code == 0, hits.err
    assert hits.out.startswith("| ID ")
    assert f"| {first} | /rt/embornal " in hits.out
    assert "| alice " in hits.out and "status=decided" in hits.out
    assert "method    keyword+strength" in hits.out and "matched   uv" in hits.out
    plain = cli("memory", "recall", "uv", "--under", "/rt", "--plain")
    assert plain.out == local(alice, "memory", "recall", "uv", "--under", "/rt", "--plain").out

    for args in (
        ("memory", "ls", "/rt"),
        ("memory", "ls", "/", "--plain"),
        ("memory", "tree", "/rt"),
        ("memory", "tree", "/", "--dirs-only"),
        ("memory", "cat", "/rt/embornal", "--meta"),
        ("memory", "cat", "/rt/embornal/cli", "--order-by", "signal", "--limit", "1"),
        ("memory", "show", second),
        ("memory", "history", first[:20]),
    ):
        remote, here = cli(*args), local(alice, *args)
        assert (remote.code, remote.out, remote.err) == (0, here.out, ""), args
    assert "└── embornal*" in cli("memory", "tree", "/rt").out
    shown = cli("memory", "show", second).out
    assert "owner:         alice" in shown and "links:         [[/rt/embornal]]" in shown

    gone = cli("memory", "forget", first, "--reason", "moved to Rust")
    assert gone.out == f"{first} /rt/embornal forgotten\n"
    assert "(no facts found)" in cli("memory", "recall", "uv", "--under", "/rt/embornal").out
    back = cli("memory", "restore", first[:22].lower(), "--reason", "it was right")
    assert back.out == f"{first} /rt/embornal restored\n"
    history = cli("memory", "history", first).out
    assert history == local(alice, "memory", "history", first).out
    assert re.search(r"FactForgotten \| alice \| assistant \| moved to Rust", history)
    assert re.search(r"FactRestored  \| alice \| assistant \| it was right", history)


def test_json_output_is_the_json_of_local_mode(alice: Server) -> None:
    made = cli("--json", "memory", "store", "/js/x", "A fact in JSON.", "--tag", "k=v")
    fact = made.json()
    assert fact["owner"] == "alice" and fact["state"] == "active"
    assert fact["tags"] == ["k=v", "owner=alice"]

    for args in (
        ("memory", "ls", "/js"),
        ("memory", "tree", "/js"),
        ("memory", "history", fact["id"]),
    ):
        assert cli("--json", *args).json() == local(alice, "--json", *args).json(), args
    for args in (("memory", "show", fact["id"]), ("memory", "cat", "/js/x")):
        remote, here = cli(*args, "--json").json(), local(alice, *args, "--json").json()
        # strength and c_eff decay with the moment of reading: compared apart, close
        assert without(without(remote, "strength"), "c_eff") == without(
            without(here, "strength"), "c_eff"
        ), args
        if "c_eff" in here:
            assert abs(remote["c_eff"] - here["c_eff"]) < 1e-6
    hits = cli("memory", "recall", "json", "--under", "/js", "--json").json()
    assert [h["fact"]["id"] for h in hits] == [fact["id"]]
    assert set(hits[0]["parts"]) >= {"total", "method", "keyword", "bm25", "matched_terms"}


# --------------------------------------------------------------------------- errors


def test_a_bad_token_is_exit_5_in_one_line(server: Server, embornal_home: Path) -> None:
    configure(embornal_home, server.url, token="emb_not_a_real_token")
    result = cli("memory", "ls", "/")
    assert result.code == 5 and result.out == ""
    assert "server.token" in one_line(result)
    data = cli("--json", "memory", "recall", "x").json()
    assert data["error"] == "unauthenticated"


def test_a_server_that_is_down_is_exit_7_with_a_hint(embornal_home: Path) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    configure(embornal_home, f"http://127.0.0.1:{port}", token="emb_x")
    result = cli("memory", "recall", "anything")
    assert result.code == 7
    line = one_line(result)
    assert f"cannot reach the server at http://127.0.0.1:{port}" in line
    assert "hint: Check server.url" in line


def test_service_errors_keep_their_exit_codes(alice: Server) -> None:
    fid = stored_id(cli("memory", "store", "/err/x", "Forget me twice."), "/err/x")
    assert cli("memory", "forget", fid, "--reason", "once").code == 0
    twice = cli("memory", "forget", fid, "--reason", "twice")
    assert twice.code == 4 and "already forgotten" in one_line(twice)
    assert cli("memory", "show", "0" * 26).code == 3
    assert cli("memory", "ls", "/no/such/path").code == 3
    assert cli("memory", "cat", "/Bad Path!").code == 2  # checked here, as the server would
    too_many = cli("memory", "recall", "x", "--limit", "5000")
    assert too_many.code == 2 and "limit" in one_line(too_many)
    owner = cli("memory", "store", "/err/x", "Mine.", "--tag", "owner=bob")
    assert owner.code == 2 and "owner" in one_line(owner)


# --------------------------------------------------------------------------- subjects


def test_each_client_sees_what_its_token_may_read(server: Server, embornal_home: Path) -> None:
    token_file = embornal_home / "bob.token"
    configure(embornal_home, server.url, token_file="bob.token")  # relative: the config dir
    token_file.write_text(f"  {server.bob}\n", encoding="utf-8")
    made = cli("memory", "store", "/bob/notes", "Zanzibar is bob's secret.")
    bobs = stored_id(made, "/bob/notes")
    assert "owner:         bob" in cli("memory", "show", bobs).out

    configure(embornal_home, server.url, token=server.alice)
    hidden = cli("memory", "show", bobs)
    assert hidden.code == 3 and f"no fact with id {bobs}" in one_line(hidden)
    assert cli("memory", "recall", "zanzibar").out == "(no facts found)\n"
    assert "/bob" not in cli("memory", "ls", "/").out
    assert cli("memory", "cat", "/bob/notes").code == 3


def test_as_subject_is_ignored_the_token_owns_new_facts(alice: Server) -> None:
    made = cli("--as-subject", "mallory", "memory", "store", "/subj/x", "Whose is it?", "--json")
    assert made.code == 0 and made.err == ""
    assert made.json()["owner"] == "alice"


def test_env_vars_make_a_client_without_config(server: Server, embornal_home: Path) -> None:
    configure(embornal_home, None)
    env = {"EMBORNAL_SERVER_URL": server.url + "/api/v1/", "EMBORNAL_TOKEN": server.bob}
    result = cli("memory", "tree", "/", "--all", **env)
    assert result.code == 0, result.err
    assert result.out.startswith("/\n") and "memory*" in result.out
    configure(embornal_home, server.url, token="emb_wrong")
    made = cli("--json", "memory", "store", "/env/x", "By env.", EMBORNAL_TOKEN=server.bob)
    assert made.json()["owner"] == "bob"


def test_token_settings_that_cannot_work_are_exit_6(server: Server, embornal_home: Path) -> None:
    configure(embornal_home, server.url, token_file=str(embornal_home / "missing.token"))
    missing = cli("memory", "ls", "/")
    assert missing.code == 6 and "cannot read server.token_file" in one_line(missing)
    configure(embornal_home, server.url)
    none = cli("memory", "ls", "/")
    assert none.code == 6 and "client mode needs a token" in one_line(none)
    configure(embornal_home, "ftp://example.org", token="x")
    assert cli("memory", "ls", "/").code == 6


# --------------------------------------------------------------------------- local only


@pytest.mark.parametrize(
    "args",
    [
        ("admin", "verify"),
        ("token", "ls"),
        ("policy", "check", "alice", "read", "/x"),
        ("memory", "purge", "01ABC", "--reason", "gone", "--yes"),
        ("memory", "tag", "/x", "k=v"),
        ("memory", "path-tags", "/x"),
        ("memory", "reindex"),
        ("memory", "wiki"),
        ("model", "ls"),
        ("export", "events", "/tmp/log.ndjson"),
        ("export", "markdown", "/tmp/md"),
        ("import", "events", "/tmp/log.ndjson"),
        ("import", "markdown", "/tmp/md"),
        ("admin", "backup", "/tmp/copy.db"),
        ("admin", "restore", "/tmp/copy.db"),
        ("serve",),
        ("mcp",),
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_local_only_commands_refuse(alice: Server, args: tuple[str, ...]) -> None:
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    name = " ".join(args[:2])
    assert one_line(result).startswith(f"embornal: {name} {REFUSAL}")
    assert cli("--json", *args).json()["error"] == "local_only"


def test_db_forces_local_mode(alice: Server, tmp_path: Path) -> None:
    mine = tmp_path / "mine.db"
    stored_id(cli("--db", str(mine), "memory", "store", "/here", "Local."), "/here")
    assert "/here" in cli("--db", str(mine), "memory", "ls", "/").out
    assert "/here" not in cli("memory", "ls", "/").out
    assert cli("--db", str(mine), "admin", "verify").code == 0


def test_what_the_server_does_not_offer_is_refused(alice: Server) -> None:
    fid = stored_id(cli("memory", "store", "/offer/x", "Old text."), "/offer/x")
    with urllib.request.urlopen(alice.url + "/openapi.json", timeout=10) as response:
        paths = json.load(response)["paths"]
    corrected = cli("memory", "supersede", fid, "New text.")
    if "post" in paths.get("/api/v1/facts/{id}/supersede", {}):
        assert corrected.code == 0 and corrected.out.endswith(" /offer/x\n")
    else:
        assert corrected.code == 2
        assert one_line(corrected).startswith(f"embornal: memory supersede {REFUSAL}")
    by_path = cli("memory", "history", "/offer/x")
    assert by_path.code == 2 and "pass its id" in one_line(by_path)


def test_kinds_commands_over_http_print_what_local_mode_prints(alice: Server) -> None:
    made = cli(
        "--json",
        "memory",
        "store",
        "/kx/p",
        "P.",
        "--kind",
        "project",
        "--attr",
        "name=p",
        "--attr",
        "status=active",
    )
    assert made.code == 0, made.err
    fact = made.json()
    assert fact["attributes"] == {"name": "p", "status": "active"}
    up = cli("memory", "update", fact["id"], "--attr", "status=done", "--reason", "shipped")
    assert up.out == f"{fact['id']} /kx/p updated\n"
    for args in (
        ("memory", "find", "--kind", "project", "--where", "status=done", "--under", "/kx"),
        ("memory", "kinds", "project"),
        ("--json", "memory", "kinds"),
    ):
        remote, here = cli(*args), local(alice, *args)
        assert (remote.code, remote.out, remote.err) == (0, here.out, ""), args
    bad = cli("memory", "update", fact["id"], "--attr", "status=busy")
    assert bad.code == 2 and "idea, active, paused" in one_line(bad)
    bad = cli("memory", "store", "/kx/q", "Q.", "--kind", "projekt")
    assert bad.code == 2 and "project" in one_line(bad)
    assert local(alice, "memory", "cat", "/kx/q").code == 3


def test_spine_commands_over_http(alice: Server) -> None:
    made = cli("--json", "memory", "store", "/sx/p", "P.")
    assert made.code == 0, made.err
    fact_id = made.json()["id"]
    up = cli("memory", "confirm", fact_id, "--evidence", "quote:yes")
    assert up.code == 0, up.err
    assert up.out.startswith(f"{fact_id} confidence ") and "(was " in up.out
    down = cli("memory", "contradict", fact_id, "--reason", "no")
    assert down.code == 0, down.err
    more = cli("--json", "memory", "evidence", fact_id, "uri:https://example.org/p", "--note", "n")
    assert more.code == 0, more.err
    assert more.json()["evidence"][-1] == {
        "type": "uri",
        "value": "https://example.org/p",
        "note": "n",
    }
    remote, here = cli("memory", "show", fact_id), local(alice, "memory", "show", fact_id)
    assert remote.code == 0 and "evidence:      quote:yes" in remote.out
    assert remote.out.splitlines()[:9] == here.out.splitlines()[:9]
    bad = cli("memory", "evidence", fact_id, "rumour:x")
    assert bad.code == 2 and "quote, uri, conversation" in one_line(bad)
    assert cli("memory", "contradict", fact_id).code == 2


def test_visibility_and_source_over_http(alice: Server) -> None:
    made = cli(
        "--json",
        "memory",
        "store",
        "/vx/p",
        "For bob.",
        "--visibility",
        "restricted:bob",
        "--source",
        "remote-cli",
        "--evidence",
        "quote:asked",
        "--confidence",
        "0.8",
    )
    assert made.code == 0, made.err
    fact = made.json()
    assert fact["visibility"] == "restricted:bob" and fact["confidence"] == 0.8
    shown = cli("--json", "memory", "show", fact["id"]).json()
    assert shown["source"] == {"subject": "alice", "actor_kind": "assistant", "label": "remote-cli"}
    changed = cli("memory", "visibility", fact["id"], "private")
    assert changed.code == 0 and changed.out == f"{fact['id']} /vx/p private\n"
    gone = cli("memory", "show", fact["id"])  # every token is an assistant's
    assert gone.code == 3 and "no fact with id" in one_line(gone)
    here = local(alice, "memory", "show", fact["id"])  # alice, as a person, on the machine
    assert here.code == 0 and "visibility:    private" in here.out
    bad = cli("memory", "store", "/vx/p", "x", "--visibility", "secret")
    assert bad.code == 2 and "shared, private, restricted" in one_line(bad)


def test_importance_commands_over_http(alice: Server) -> None:
    made = cli("--json", "memory", "store", "/ix/p", "P.", "--lifetime", "until:2999-01-01")
    assert made.code == 0, made.err
    fact_id = made.json()["id"]
    assert made.json()["lifetime"] == "until:2999-01-01"
    for args in (
        ("memory", "pin", fact_id, "--reason", "matters"),
        ("memory", "weight", fact_id, "0.7"),
        ("memory", "lifetime", fact_id, "permanent"),
        ("memory", "weight", fact_id, "none"),
        ("memory", "unpin", fact_id),
    ):
        r = cli(*args)
        assert r.code == 0 and r.out.startswith(f"{fact_id} "), (args, r.err)
    shown = cli("--json", "memory", "show", fact_id).json()
    assert (shown["pinned"], shown["user_weight"], shown["lifetime"]) == (False, None, "permanent")
    remote, here = cli("memory", "show", fact_id), local(alice, "memory", "show", fact_id)
    assert remote.out.splitlines()[:17] == here.out.splitlines()[:17]
    old = cli("--json", "memory", "store", "/ix/old", "Old.", "--at", "2019-01-01T00:00:00Z")
    due = cli("--json", "memory", "due", "--under", "/ix")
    assert [d["fact"]["id"] for d in due.json()] == [old.json()["id"]]
    for args in (
        ("memory", "weight", fact_id, "2"),
        ("memory", "lifetime", fact_id, "until:2020-01-01"),
        ("memory", "lifetime", fact_id, "sometimes"),
    ):
        bad = cli(*args)
        assert bad.code == 2 and len(bad.err.splitlines()) == 1, (args, bad.err)


def test_proposal_edit_replaces_an_item_over_http(alice: Server) -> None:
    """`proposal edit --replace N=JSON --version V` in client mode: the item keeps its
    number and the id of the fact it makes; a stale version (exit 4), an unknown number
    and a bad item (exit 2) change nothing on the server."""
    with Memory.open(alice.db) as memory:  # the server's database, as alice proposes
        made = memory.as_subject("alice").propose(
            [{"type": "create", "path": "/alice/tea", "content": "Likes tea."}]
        )
    green = json.dumps({"type": "create", "path": "/alice/tea", "content": "Likes green tea."})
    done = cli("--json", "proposal", "edit", made.id, "--replace", f"1={green}", "--version", "1")
    assert done.code == 0, done.err
    (item,) = done.json()["items"]
    assert (item["number"], item["fact_id"]) == ("1", made.items[0].fact_id)
    assert done.json()["version"] == 2 and item["fields"]["content"] == "Likes green tea."
    stale = cli("proposal", "edit", made.id, "--replace", f"1={green}", "--version", "1")
    assert stale.code == 4 and "changed since version 1" in one_line(stale)
    unknown = cli("proposal", "edit", made.id, "--replace", f"9={green}")
    assert unknown.code == 2 and "has no item '9'" in one_line(unknown)
    bad = cli("proposal", "edit", made.id, "--replace", '1={"type": "create", "path": "/n"}')
    assert bad.code == 2 and "needs 'content'" in one_line(bad)
    assert cli("--json", "proposal", "show", made.id).json() == done.json()
