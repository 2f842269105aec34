"""Tokens, policies and --as-subject through the console script."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cli_helpers import Run


def test_token_add_shows_the_token_once(cli: Run, embornal_home: Path) -> None:
    r = cli("token", "add", "alice", "--name", "laptop", "--expires-in", "30")
    assert r.code == 0, r.err
    fields = {line[:9].strip(): line[9:] for line in r.out.splitlines()}
    token, token_id = fields["token"], fields["id"]
    assert token.startswith(f"emb_{token_id.lower()}_")
    assert fields["subject"] == "alice" and fields["name"] == "laptop"
    assert fields["expires"].endswith("Z")
    assert fields["rules"] == "p, alice, tag:owner=alice, read, allow"
    assert "    p, alice, path:/*, create, allow" in r.out and "g, alice, everyone" in r.out
    assert "shown this once" in r.err and r.err.count("\n") == 1

    listed = cli("token", "ls")
    assert listed.code == 0 and token_id in listed.out and "laptop" in listed.out
    assert "| active |" in listed.out
    rows = cli("token", "ls", "--json").json()
    assert [(t["id"], t["subject"], t["state"]) for t in rows] == [(token_id, "alice", "active")]
    assert "token" not in rows[0]
    # The secret is url-safe base64 and may itself hold '_': cut the known prefix instead.
    secret = token.removeprefix(f"emb_{token_id.lower()}_")
    assert len(secret) >= 40
    for args in (("token", "ls", "--all"), ("token", "ls", "--all", "--json")):
        assert secret not in cli(*args).out
    assert secret.encode() not in (embornal_home / "memory.db").read_bytes()

    again = cli("token", "add", "alice", "--json").json()  # the rules exist: none added
    assert again["subject"] == "alice" and again["rules_added"] == []
    assert again["token"].startswith("emb_") and again["token"] != token

    r = cli("token", "revoke", token)  # the whole token names its id
    assert (r.code, r.out) == (0, f"{token_id} revoked (subject alice)\n")
    assert token_id not in cli("token", "ls").out
    states = {t["id"]: t["state"] for t in cli("token", "ls", "--all", "--json").json()}
    assert states[token_id] == "revoked"
    r = cli("token", "revoke", token_id[:12])
    assert r.code == 4 and "already revoked" in r.err
    r = cli("--json", "token", "revoke", again["id"][:14].lower())
    assert r.code == 0 and r.json()["state"] == "revoked"
    assert cli("token", "ls").out == "(no active tokens; --all shows the others)\n"
    r = cli("token", "revoke", "01ZZZZZZZZ")
    assert r.code == 3 and "token ls --all" in r.err


def test_token_add_options(cli: Run) -> None:
    r = cli("token", "add", "bob", "--no-rules", "--json")
    assert r.code == 0 and r.json()["rules_added"] == [] and r.json()["expires_at"] is None
    assert "bob" not in cli("policy", "ls").out
    assert cli("token", "add", "bob", "--expires-in", "0").code == 2
    assert cli("token", "add", "two words").code == 2


def test_a_token_held_by_a_person(cli: Run) -> None:
    r = cli("token", "add", "alice", "--person")
    assert r.code == 0 and "kind     person" in r.out, r.err
    assert cli("token", "add", "bob", "--json").json()["actor_kind"] == "assistant"
    listed = {t["subject"]: t["actor_kind"] for t in cli("token", "ls", "--json").json()}
    assert listed == {"alice": "person", "bob": "assistant"}
    table = cli("token", "ls").out
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in table.splitlines()]
    assert rows[0][:3] == ["ID", "Subject", "Kind"]
    assert sorted(r[1:3] for r in rows[2:]) == [["alice", "person"], ["bob", "assistant"]]
    assert "--person" in cli("token", "add", "--help").out


def test_policy_add_ls_rm_check(cli: Run, stored: Callable[..., str]) -> None:
    fact = stored("/work/acme/plan", "Ship in May.", tags=["visibility=team"])
    r = cli("policy", "add", "p", "carol", "path:/work/*", "read")
    assert (r.code, r.out) == (0, "added p, carol, path:/work/*, read, allow\n")
    r = cli("policy", "add", "p", "carol", "path:/work/acme/*", "read", "deny", "--json")
    assert r.json() == {
        "ptype": "p",
        "values": ["carol", "path:/work/acme/*", "read", "deny"],
        "rule": "p, carol, path:/work/acme/*, read, deny",
    }
    assert cli("policy", "add", "g", "carol", "team").out == "added g, carol, team\n"
    assert cli("policy", "add", "g", "carol", "team").code == 4  # exists already
    assert cli("policy", "add", "p", "carol", "nowhere", "read").code == 2
    assert cli("policy", "add", "p", "carol", "path:/x", "peek").code == 2
    assert cli("policy", "add", "x", "carol", "team").code == 2

    lines = cli("policy", "ls").out.splitlines()
    assert "p, carol, path:/work/*, read, allow" in lines and lines[-1].startswith("g, ")
    assert "p, default, path:/*, read, allow" in lines
    assert {"ptype": "g", "values": ["carol", "team"], "rule": "g, carol, team"} in cli(
        "policy", "ls", "--json"
    ).json()

    r = cli("policy", "check", "carol", "read", "/work/notes")
    assert r.code == 0
    assert r.out.splitlines()[0] == "allow: p, carol, path:/work/*, read, allow"
    r = cli("policy", "check", "carol", "read", fact[:12])  # a fact id: the deny decides
    assert r.code == 0 and r.out.startswith("deny: p, carol, path:/work/acme/*, read, deny\n")
    assert "on /work/acme/plan (owner=default, visibility=team)" in r.out
    r = cli("policy", "check", "carol", "write", "/work/notes")
    assert (r.code, r.out.splitlines()[0]) == (0, "deny: no rule matched")
    data = cli("policy", "check", "carol", "delete", "/work", "--json").json()
    assert (data["allowed"], data["rule"]) == (False, None)
    data = cli("--json", "policy", "check", "default", "write", "/work").json()
    assert (data["allowed"], data["rule"]) == (True, "p, default, path:/*, write, allow")
    assert cli("policy", "check", "carol", "fly", "/work").code == 2

    r = cli("policy", "rm", "p", "carol", "path:/work/acme/*", "read", "deny")
    assert (r.code, r.out) == (0, "removed p, carol, path:/work/acme/*, read, deny\n")
    assert cli("policy", "check", "carol", "read", fact).out.startswith("allow: ")
    r = cli("policy", "rm", "g", "carol", "nobody")
    assert r.code == 3 and "policy ls" in r.err


def test_as_subject_sees_only_its_own_facts(cli: Run, stored: Callable[..., str]) -> None:
    stored("/work/plan", "Quartz supplier is Acme.")
    assert cli("token", "add", "alice").code == 0
    r = cli("--as-subject", "alice", "memory", "store", "/alice/notes", "Quartz is pretty.")
    assert r.code == 0, r.err
    alice_fact = r.out.split()[0]

    r = cli("memory", "recall", "quartz", "--plain", "--as-subject", "alice")
    assert r.out == "/alice/notes\tQuartz is pretty.\n"
    both = cli("memory", "recall", "quartz", "--plain").out  # default reads everything
    assert "Quartz supplier" in both and "Quartz is pretty" in both
    r = cli("--as-subject", "alice", "memory", "ls")
    paths = [e["path"] for e in cli("--as-subject", "alice", "--json", "memory", "ls").json()]
    assert "/alice" in paths and "/work" not in paths and r.code == 0
    assert cli("--as-subject", "alice", "memory", "cat", "/work/plan").code == 3
    r = cli("--as-subject", "alice", "memory", "show", alice_fact)
    assert "owner:         alice" in r.out
    history = cli("--as-subject", "alice", "--json", "memory", "history", alice_fact).json()
    assert history[0]["actor"] == "alice" and history[0]["actor_kind"] == "person"


def test_recall_explain_and_json_give_no_raw_bm25_to_a_scoped_subject(
    cli: Run, stored: Callable[..., str]
) -> None:
    stored("/work/plan", "Quartz supplier is Acme, quartz again.")
    assert cli("token", "add", "alice").code == 0
    assert (
        cli("--as-subject", "alice", "memory", "store", "/alice/n", "Quartz is pretty.").code == 0
    )
    recall = ("memory", "recall", "quartz", "--mode", "keyword")
    [hit] = cli("--as-subject", "alice", "--json", *recall).json()
    assert hit["parts"]["bm25"] is None and hit["parts"]["keyword"] == 1.0
    explain = cli("--as-subject", "alice", *recall, "--explain").out
    assert "   bm25      -\n" in explain and "   keyword   1.000\n" in explain
    whole = cli("--json", *recall).json()  # default reads everything: the raw value stays
    assert len(whole) == 2 and all(isinstance(h["parts"]["bm25"], float) for h in whole)


def test_subject_without_rules_sees_nothing_and_cannot_write(
    cli: Run, stored: Callable[..., str]
) -> None:
    fact = stored("/work/plan", "Quartz supplier is Acme.")
    who = ("--as-subject", "mallory")
    r = cli(*who, "memory", "recall", "quartz")
    assert (r.code, r.out) == (0, "(no facts found)\n")
    assert cli(*who, "memory", "recall", "--json").json() == []
    assert cli(*who, "memory", "ls").out == "(no paths below /)\n"
    assert cli(*who, "memory", "tree").out == "/\n"
    assert cli(*who, "memory", "cat", "/work/plan").code == 3
    assert cli(*who, "memory", "cat", "/memory").code == 3
    assert cli(*who, "memory", "show", fact).code == 3
    assert cli(*who, "memory", "history", fact).code == 3
    assert cli(*who, "memory", "forget", fact, "--reason", "x").code == 3
    r = cli(*who, "memory", "store", "/mallory", "Mine now.")
    assert r.code == 5 and r.out == "" and r.err.count("\n") == 1
    assert cli(*who, "--json", "memory", "tag", "/work", "k=v").json()["error"] == ("access_denied")
    assert cli(*who, "memory", "supersede", fact, "Changed.").code == 3
    assert cli("memory", "ls", "/mallory").code == 3  # nothing was written


def test_actor_kind_from_the_environment(cli: Run, embornal_home: Path) -> None:
    import os

    env = {**os.environ, "EMBORNAL_ACTOR_KIND": "assistant"}
    fact = cli("memory", "store", "/agent", "Written by an agent.", env=env).out.split()[0]
    events = cli("--json", "memory", "history", fact).json()
    assert events[0]["actor_kind"] == "assistant"
    r = cli("memory", "ls", env={**os.environ, "EMBORNAL_ACTOR_KIND": "robot"})
    assert r.code == 6 and "EMBORNAL_ACTOR_KIND" in r.err


def test_policy_narrow_tokens_turns_an_older_tokens_write_anywhere_into_create(
    cli: Run, stored: Callable[..., str]
) -> None:
    public = stored("/team/plan", "The launch is in May.", tags=["visibility=public"])
    for rule in (  # what `token add` gave before decision 0128
        ("p", "carol", "tag:owner=carol", "write"),
        ("p", "carol", "path:/*", "write"),
        ("g", "carol", "everyone"),
        ("p", "dave", "path:/team/*", "write"),  # a rule a person wrote: left as it is
    ):
        assert cli("policy", "add", *rule).code == 0
    assert cli("--as-subject", "carol", "memory", "pin", public, "--reason", "x").code == 0

    narrowed = cli("policy", "narrow-tokens", "--json")
    assert narrowed.code == 0, narrowed.err
    assert [r["values"] for r in narrowed.json()] == [["carol", "path:/*", "create", "allow"]]
    rules = cli("policy", "ls").out
    assert "p, carol, path:/*, write, allow" not in rules
    assert "p, dave, path:/team/*, write, allow" in rules

    refused = cli("--as-subject", "carol", "memory", "unpin", public, "--reason", "x")
    assert refused.code == 5 and "carol may not write" in refused.err
    mine = cli("--as-subject", "carol", "memory", "store", "/team/plan", "Carol's note.")
    assert mine.code == 0, mine.err
    assert cli("policy", "narrow-tokens", "--json").json() == []  # nothing left to narrow
