"""The claims ledger through the console script (decision 0081): `embornal claim create,
evidence, adopt, revise, withdraw, list, show` with `--json`, `--as-of` (record time) and
`--valid-at` (valid time); a refusal is exit 4 with a hint naming the command, bad input one
line and exit 2 with nothing written."""

from __future__ import annotations

from cli_helpers import Run


def test_create_evidence_adopt_revise_on_the_command_line(cli: Run) -> None:
    fact = cli(
        "--json", "memory", "store", "/projects/release", "Planned for June.", "--source", "notice"
    ).json()["id"]
    made = cli(
        "--json",
        "claim",
        "create",
        "The release is planned for June.",
        "--type",
        "plan",
        "--valid-from",
        "2026-06-01",
        "--valid-until",
        "2026-07-01",
    )
    assert made.code == 0, made.err
    cid = made.json()["id"]
    early = cli("claim", "adopt", cid, "--reason", "too early")
    assert early.code == 4 and "embornal claim evidence" in early.err
    cited = cli("claim", "evidence", cid, "--memory", fact, "--note", "the notice")
    assert cited.code == 0 and "supports memory" in cited.out, cited.err
    assert cli("claim", "adopt", cid[:10], "--reason", "the plan").code == 0
    checkpoint = cli("--json", "claim", "show", cid).json()["updated_at"]
    assert cli("claim", "evidence", cid, "--source", "minutes", "--stance", "contradicts").code == 0
    then = cli("--json", "claim", "list", "--as-of", checkpoint, "--valid-at", "2026-06-15").json()
    assert [c["id"] for c in then["claims"]] == [cid]
    assert [e["stance"] for e in then["claims"][0]["evidence"]] == ["supports"]
    assert (
        cli("--json", "claim", "list", "--valid-at", "2026-08-01", "--status", "all").json()[
            "claims"
        ]
        == []
    )
    revised = cli("claim", "revise", cid, "--statement", "Planned for July.", "--reason", "minutes")
    assert revised.code == 0 and "Planned for July." in revised.out
    shown = cli("claim", "show", cid, "--as-of", checkpoint)
    assert "planned for June" in shown.out and "challenges" not in shown.out
    assert cli("claim", "withdraw", cid, "--reason", "dropped").code == 0
    again = cli("claim", "adopt", cid, "--reason", "again")
    assert again.code == 4 and "embornal claim create" in again.err


def test_bad_input_is_one_line_and_writes_nothing(cli: Run) -> None:
    bad = cli("claim", "create", "x", "--type", "fact")
    assert bad.code == 2 and "claim_type must be one of" in bad.err
    assert len(bad.err.strip().splitlines()) == 1
    assert cli("--json", "claim", "list", "--status", "all").json()["claims"] == []
    assert cli("claim", "show", "C01ZZZZZZZZZZ").code == 3
    assert cli("claim", "list", "--as-of", "whenever").code == 2


def test_a_claim_on_a_forgotten_memory_shows_without_its_text(cli: Run) -> None:
    fact = cli("--json", "memory", "store", "/projects/release", "Planned for June.").json()["id"]
    cid = cli("--json", "claim", "create", "Planned for June.", "--type", "plan").json()["id"]
    assert cli("claim", "evidence", cid, "--memory", fact, "--note", "June notice").code == 0
    assert cli("memory", "forget", fact, "--reason", "private").code == 0
    shown = cli("claim", "show", cid)
    assert shown.code == 0 and "June" not in shown.out, shown.out
    assert f"withheld while memory {fact} is forgotten" in shown.out
    assert "add_evidence by default: (withheld)" in shown.out
    as_json = cli("--json", "claim", "show", cid).json()
    assert as_json["redacted"] and as_json["withheld_by"] == [fact]
    assert as_json["statement"] is None
