"""The graph through the console script: memory link, unlink, links, merge and dangling;
bad input is one line naming what is allowed, exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Run


def _id(cli: Run, *args: str) -> str:
    made = cli("--json", "memory", "store", *args)
    assert made.code == 0, made.err
    fact_id: str = made.json()["id"]
    return fact_id


def test_link_links_unlink_merge_dangling(cli: Run) -> None:
    ada = _id(cli, "/people/ada", "Ada.", "--kind", "person", "--attr", "full_name=Ada Lovelace")
    twin = _id(
        cli, "/people/augusta", "Augusta.", "--kind", "person", "--attr", "full_name=Augusta King"
    )
    org = _id(cli, "/orgs/engine", "Engine.", "--kind", "organization", "--attr", "name=Engine")
    note = _id(cli, "/notes/n", "Notes on [[/orgs/engine]] by \x1b[31mAda.")
    made = cli("memory", "link", ada, "works_at", org, "--reason", "her team")
    assert made.code == 0, made.err
    assert made.out == f"linked {ada} works_at {org}\n"
    assert cli("memory", "link", note, "about", twin[:14]).code == 0

    shown = cli("memory", "links", org, "--relation", "employs")
    assert shown.code == 0, shown.err
    lines = shown.out.splitlines()
    assert lines[0].startswith(f"{org} organization /orgs/engine")
    assert lines[1].startswith(f"  employs {ada} person /people/ada")
    text = cli("memory", "links", note).out
    assert "  [[/orgs/engine]]" in text and "\x1b" not in text
    assert f"about {twin}" in text
    data = cli("--json", "memory", "links", ada, "--depth", "2").json()
    assert [n["depth"] for n in data["nodes"]] == [1]
    assert data["steps"][0]["name"] == "works_at"

    merged = cli("--json", "memory", "merge", ada, twin, "--reason", "one person")
    assert merged.code == 0, merged.err
    assert merged.json()["attributes"]["aliases"] == ["Augusta King"]
    assert f"subject_of {note}" in cli("memory", "links", ada).out

    assert cli("memory", "dangling").out == "no dangling links: every link points at a live fact\n"
    assert cli("memory", "forget", note, "--reason", "wrong").code == 0  # a source: not dangling
    old = _id(cli, "/old", "Old.")
    assert cli("memory", "link", ada, "about", old).code == 0
    assert cli("memory", "forget", old, "--reason", "outdated").code == 0
    dangling = cli("memory", "dangling")
    assert dangling.code == 0, dangling.err
    assert dangling.out == f"{ada} about {old} (forgotten)\n"
    gone = cli("memory", "unlink", ada, "works_at", org)
    assert gone.out == f"unlinked {ada} works_at {org}\n"


def test_bad_input_is_one_line_exit_2_and_nothing_is_written(cli: Run) -> None:
    a = _id(cli, "/a", "A.")
    b = _id(cli, "/b", "B.")
    before = cli("memory", "history", a).out
    bad = cli("memory", "link", a, "knows", b)
    assert bad.code == 2
    assert "'about', 'involves', 'part_of'" in bad.err and bad.err.count("\n") <= 2
    inverse = cli("memory", "link", a, "subject_of", b)
    assert inverse.code == 2 and "subject_of" in inverse.err
    emit = cli("memory", "link", a, "works_at", b)
    assert emit.code == 2
    first = emit.err.strip().splitlines()[0]
    assert first.startswith("embornal: a fact may not emit works_at; its relations are about, ")
    assert "located_in, relates_to, supersedes" in first
    assert cli("memory", "link", a, "about", a).code == 2  # self-link
    assert cli("memory", "links", a, "--direction", "up").code == 2
    assert cli("memory", "links", a, "--depth", "9").code == 2
    assert cli("memory", "merge", a, b).code == 2  # --reason is required
    assert cli("memory", "link", a, "about", "01KCZ8Q3W5R7T9V1X3Z5B7D9F1").code == 3
    assert cli("memory", "link", a, "about", b).code == 0
    assert cli("memory", "link", a, "about", b).code == 4  # a duplicate is a conflict
    after = cli("memory", "history", a).out
    assert after.count("FactLinked") == 1 and after.startswith(before.rstrip("\n").split("\n")[0])


def test_similar_lists_the_facts_most_like_one(cli: Run) -> None:
    green = _id(cli, "/tea/green", "Green tea is brewed at 80 degrees.")
    black = _id(cli, "/tea/black", "Black tea is brewed with boiling water.")
    _id(cli, "/garden", "The roses bloom in June.")
    shown = cli("memory", "similar", green)
    assert shown.code == 0, shown.err
    assert [line.split()[1] for line in shown.out.splitlines()] == [black]
    data = cli("--json", "memory", "similar", green, "--limit", "1").json()
    assert [hit["fact"]["id"] for hit in data] == [black]
    bad = cli("memory", "similar", green, "--mode", "loud")
    assert bad.code == 2 and bad.out == ""
