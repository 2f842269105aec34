"""The conflict queue through the console script: conflict list, show, resolve, scan;
bad input is one line and exit 2 with nothing written; a resolved conflict is exit 4."""

from __future__ import annotations

from cli_helpers import Run


def _person(cli: Run, path: str, name: str, *attrs: str) -> str:
    made = cli(
        "--json",
        "memory",
        "store",
        path,
        name,
        "--kind",
        "person",
        "--attr",
        f"full_name={name}",
        *attrs,
    )
    assert made.code == 0, made.err
    fact_id: str = made.json()["id"]
    return fact_id


def test_list_show_resolve_and_the_history_says_why(cli: Run) -> None:
    ada = _person(cli, "/people/ada", "Ada Lovelace")
    dup = _person(cli, "/people/ada2", "A. Lovelace")
    listed = cli("conflict", "list")
    assert listed.code == 0, listed.err
    head, first, _, second, _ = listed.out.splitlines()
    cid = head.split()[0]
    assert head == f"{cid} duplicate open  score 0.850  (names: initials agree)"
    assert first.startswith(f"  {ada} person /people/ada  active") and "[suggested keep]" in first
    assert second.startswith(f"  {dup} person /people/ada2  active")
    shown = cli("conflict", "show", cid[:6])
    assert shown.code == 0 and "    full_name: A. Lovelace" in shown.out
    ways = "--keep FACT_ID|--merge FACT_ID|--both"
    assert f"resolve: embornal conflict resolve {cid} {ways}" in shown.out
    done = cli("conflict", "resolve", cid, "--keep", ada, "--reason", "the same Ada")
    assert done.code == 0, done.err
    assert "resolved " in done.out and f": keep {ada}; forgot {dup}" in done.out
    assert "reason: the same Ada" in done.out
    again = cli("conflict", "resolve", cid, "--both", "--reason", "no")
    assert again.code == 4 and "already resolved" in again.err
    data = cli("--json", "conflict", "list", "--status", "all").json()
    assert [c["id"] for c in data] == [cid]
    assert data[0]["resolution"]["archived"] == [dup]
    assert cli("memory", "history", dup).out.count("the same Ada") == 1
    assert cli("conflict", "list").out == "no conflicts\n"


def test_bad_input_is_exit_2_and_nothing_is_written(cli: Run) -> None:
    _person(cli, "/people/1", "Alan Turing")
    _person(cli, "/people/2", "Alan Turing")
    cid = cli("--json", "conflict", "list").json()[0]["id"]
    events = cli("--json", "memory", "history", "/people/1").out
    for args, says in [
        (("resolve", cid, "--keep", cid, "--both", "--reason", "x"), "one of --keep ID, --merge"),
        (("resolve", cid, "--keep", "01ZZZZ", "--reason", "x"), "--keep must name one of"),
        (("resolve", cid, "--both"), "required: --reason"),
        (("list", "--status", "closed"), "invalid choice: 'closed'"),
        (("list", "--class", "odd"), "invalid choice: 'odd'"),
        (("show", "nope"), "a conflict id is K and up to 15 hexadecimal digits"),
    ]:
        r = cli("conflict", *args)
        assert r.code == 2, (args, r.err)
        assert says in r.err, (args, r.err)
    missing = cli("conflict", "show", "KFFFFFFFFFFFF")
    assert missing.code == 3 and "no conflict with id KFFFFFFFFFFFF" in missing.err
    assert cli("--json", "memory", "history", "/people/1").out == events
    assert cli("--json", "conflict", "show", cid).json()["status"] == "open"


def test_scan_opens_what_the_store_did_not_look_for(cli: Run) -> None:
    for path in ("/notes/a", "/notes/b"):
        made = cli("memory", "store", path, "The build uses uv and ruff for the whole project.")
        assert made.code == 0, made.err
    assert cli("conflict", "list").out == "no conflicts\n"
    scanned = cli("conflict", "scan", "--no-stale")
    assert scanned.code == 0, scanned.err
    assert scanned.out.startswith("1 new conflict\n") and " duplicate open " in scanned.out
    assert "near-duplicate text (keywords)" in scanned.out
    assert cli("conflict", "scan").out == "no new conflicts\n"


def test_resolve_by_merge_says_what_was_merged(cli: Run) -> None:
    ada = _person(cli, "/people/ada", "Ada Lovelace")
    dup = _person(cli, "/people/ada2", "A. Lovelace")
    cid = cli("--json", "conflict", "list").json()[0]["id"]
    done = cli("conflict", "resolve", cid, "--merge", ada, "--reason", "the same Ada")
    assert done.code == 0, done.err
    assert f": merge {ada}; merged {dup}" in done.out
    assert "FactMerged" in cli("memory", "show", ada).out
    both = cli("conflict", "resolve", cid, "--merge", ada, "--both", "--reason", "x")
    assert both.code == 2 and "one of --keep ID, --merge ID or --both" in both.err
