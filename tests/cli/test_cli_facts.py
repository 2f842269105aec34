"""Writing and correcting facts through the console script, in text and in JSON."""

from __future__ import annotations

from collections.abc import Callable

from cli_helpers import Run


def test_life_of_a_fact_in_text(cli: Run) -> None:
    r = cli("memory", "store", "/Projects/Embornal", "The memory lives in SQLite.")
    assert r.code == 0, r.err
    fact_id, path = r.out.split()
    assert len(fact_id) == 26 and path == "/projects/embornal"

    r = cli("memory", "recall", "sqlite")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0].split("|")[1:4] == [
        " Path               ",
        " Signal ",
        " Fact                        ",
    ]
    assert "| /projects/embornal |  1.000 | The memory lives in SQLite. |" in r.out

    r = cli("memory", "show", fact_id[:16].lower())  # a prefix, in any case
    assert r.code == 0
    assert f"id:            {fact_id}" in r.out
    assert "state:         active" in r.out
    assert "owner:         default" in r.out
    assert "recalls:       1" in r.out  # the recall above reinforced it
    assert "owner=default (own)" in r.out
    assert "  The memory lives in SQLite." in r.out

    r = cli(
        "memory", "supersede", fact_id[:20], "It lives in one SQLite file.", "--reason", "exact"
    )
    assert r.code == 0, r.err
    new_id, _ = r.out.split()
    assert new_id != fact_id

    r = cli("memory", "history", new_id)
    assert r.code == 0
    rows = [line for line in r.out.splitlines() if "FactStored" in line]
    assert len(rows) == 2 and fact_id in rows[0] and new_id in rows[1]
    assert "| exact " in rows[1] and "person" in rows[1]

    r = cli("memory", "show", fact_id)
    assert "state:         superseded" in r.out and f"superseded by: {new_id}" in r.out

    r = cli("memory", "forget", new_id, "--reason", "wrong")
    assert (r.code, r.out) == (0, f"{new_id} /projects/embornal forgotten\n")
    # Forgetting the correction brings the old fact back into recall.
    assert cli("memory", "recall", "sqlite", "--plain").out == (
        "/projects/embornal\tThe memory lives in SQLite.\n"
    )

    r = cli("memory", "restore", new_id, "--reason", "right after all")
    assert (r.code, r.out) == (0, f"{new_id} /projects/embornal restored\n")
    assert "one SQLite file" in cli("memory", "recall", "sqlite", "--plain").out

    r = cli("memory", "purge", new_id, "--reason", "secret", "--yes")
    assert r.code == 0, r.err
    assert r.out.startswith(f"{new_id} purged (")
    r = cli("memory", "show", new_id)
    assert "state:         purged" in r.out and "(purged: the content is gone)" in r.out
    assert "one SQLite file" not in r.out


def test_life_of_a_fact_in_json(cli: Run) -> None:
    r = cli("--json", "memory", "store", "/notes", "Tea at five.", "--tag", "mood=calm")
    assert r.code == 0, r.err
    fact = r.json()
    assert fact["path"] == "/notes" and fact["owner"] == "default"
    assert fact["tags"] == ["mood=calm", "owner=default"]
    assert fact["state"] == "active" and fact["created_at"].endswith("Z")
    fid = fact["id"]

    hits = cli("memory", "recall", "tea", "--json").json()  # --json after the command
    assert [h["fact"]["id"] for h in hits] == [fid]
    assert set(hits[0]) == {"fact", "score", "strength", "parts"}
    assert hits[0]["parts"]["matched_terms"] == ["tea"]
    assert hits[0]["parts"]["method"] == "keyword+strength"

    detail = cli("memory", "show", fid, "--json").json()
    assert detail["fact"]["recall_count"] == 1
    assert {"tag": "mood=calm", "key": "mood", "value": "calm", "source": None} in detail[
        "effective_tags"
    ]
    assert [e["type"] for e in detail["events"]] == ["FactStored"]

    new = cli("--json", "memory", "supersede", fid, "Tea at six.").json()
    assert new["supersedes_id"] == fid and new["tags"] == ["mood=calm", "owner=default"]

    events = cli("--json", "memory", "history", fid).json()
    assert [e["stream_id"] for e in events] == [fid, new["id"]]
    assert events[0]["actor_kind"] == "person" and events[0]["recorded_at"].endswith("Z")

    forgotten = cli("--json", "memory", "forget", new["id"], "--reason", "no").json()
    assert forgotten["state"] == "forgotten" and forgotten["deleted_at"].endswith("Z")
    restored = cli("--json", "memory", "restore", new["id"], "--reason", "yes").json()
    assert restored["state"] == "active"
    purged = cli("--json", "memory", "purge", new["id"], "--reason", "x", "--yes").json()
    assert purged["fact_id"] == new["id"] and purged["redacted_events"] >= 1


def test_at_dates_the_fact(cli: Run) -> None:
    r = cli("--json", "memory", "store", "/history", "--at", "2020-01-02T03:04:05+01:00", "Old.")
    assert r.code == 0, r.err
    assert r.json()["created_at"] == "2020-01-02T02:04:05.000000Z"
    r = cli("memory", "store", "/history", "Bad time.", "--at", "yesterday")
    assert r.code == 2 and "yesterday" in r.err and "ISO-8601" in r.err


def test_content_from_stdin(cli: Run) -> None:
    r = cli("memory", "store", "/notes", "-", stdin="Piped in.\n\n")
    assert r.code == 0, r.err
    r = cli("memory", "store", "/notes", stdin="Line one\nline two\n")
    assert r.code == 0, r.err
    r = cli("memory", "store", "/notes", "--tag", "a=b", "--", "--dashing start")
    assert r.code == 0, r.err
    facts = cli("--json", "memory", "cat", "/notes").json()
    contents = [v["fact"]["content"] for v in facts]
    assert contents == ["Piped in.", "Line one\nline two", "--dashing start"]
    assert cli("memory", "recall", "--plain", "--", "--dashing").out == (
        "/notes\t--dashing start\n"
    )


def test_invalid_utf8_on_stdin_stores_nothing(cli: Run) -> None:
    r = cli("memory", "store", "/notes", "-", stdin=b"caf\xe9 au lait")
    assert r.code == 2
    assert r.err.count("\n") == 1
    assert "not valid UTF-8" in r.err and "0xe9" in r.err
    assert cli("memory", "cat", "/notes").code == 3
    assert cli("memory", "recall", "caf", "--plain").out == ""


def test_owner_tag_is_refused_and_nothing_stored(cli: Run) -> None:
    r = cli("memory", "store", "/notes", "Mine.", "--tag", "owner=mallory")
    assert r.code == 2
    assert "owner" in r.err and "hint:" in r.err
    assert cli("memory", "cat", "/notes").code == 3


def test_bad_path_names_the_bad_segment(cli: Run) -> None:
    r = cli("memory", "store", "/projects/-oops", "text")
    assert r.code == 2
    assert "'-oops'" in r.err and "letter or a digit" in r.err
    r = cli("--json", "memory", "ls", "/a b")
    assert r.code == 2 and r.json()["error"] == "invalid_path"


def test_unknown_and_malformed_ids(cli: Run) -> None:
    r = cli("memory", "show", "0000000000000000000000000Z")
    assert r.code == 3 and r.err.startswith("embornal: no fact with id")
    r = cli("--json", "memory", "forget", "ZZZZ", "--reason", "x")
    assert r.code == 3
    assert r.json() == {
        "error": "not_found",
        "message": "no fact with id ZZZZ",
        "hint": "Find ids with `embornal memory recall` or `embornal memory cat PATH`.",
    }
    r = cli("memory", "show", "not-an-id!")
    assert r.code == 2 and "is not a fact id" in r.err


def test_forget_needs_a_reason_and_purge_a_confirmation(
    cli: Run, stored: Callable[..., str]
) -> None:
    fid = stored("/notes", "Keep me.")
    r = cli("memory", "forget", fid)
    assert r.code == 2 and "--reason" in r.err
    r = cli("memory", "purge", fid, "--reason", "gone")  # stdin is no terminal
    assert r.code == 2
    assert "no terminal" in r.err and "--yes" in r.err
    assert cli("memory", "show", fid).out.count("state:         active") == 1
    r = cli("memory", "restore", fid, "--reason", "was never gone")
    assert r.code == 4 and "not forgotten" in r.err


def test_path_tags_are_inherited(cli: Run, stored: Callable[..., str]) -> None:
    fid = stored("/work/acme/notes", "Inherits.")
    r = cli("memory", "tag", "/Work", "visibility=team", "client=acme")
    assert (r.code, r.out) == (0, "/work tagged client=acme, visibility=team\n")
    detail = cli("--json", "memory", "show", fid).json()
    team = {"tag": "visibility=team", "key": "visibility", "value": "team", "source": "/work"}
    assert team in detail["effective_tags"]
    assert "visibility=team (from /work)" in cli("memory", "show", fid).out
    r = cli("--json", "memory", "untag", "/work", "Client")
    assert r.json() == {"path": "/work", "keys": ["client"]}
    assert "client=acme" not in cli("memory", "show", fid).out
    # An owner tag on a path never reaches a fact: the fact's own owner tag wins.
    assert cli("memory", "tag", "/work", "owner=x").code == 0
    assert "owner=default (own)" in cli("memory", "show", fid).out


def test_path_tags_lists_what_a_new_fact_inherits(cli: Run) -> None:
    assert cli("memory", "tag", "/work", "visibility=team", "client=acme").code == 0
    assert cli("memory", "tag", "/work/acme", "client=acme-eu").code == 0
    r = cli("--json", "memory", "path-tags", "/Work/acme/notes")
    assert (r.code, r.json()) == (0, ["client=acme-eu", "visibility=team"])
    assert cli("--json", "memory", "path-tags", "/home").json() == []
    r = cli("memory", "path-tags", "no path")
    assert r.code == 2 and "path" in r.err
