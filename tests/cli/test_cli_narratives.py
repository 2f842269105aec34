"""Narratives through the console script: embornal narrative add, current, review,
history, list; a refusal is exit 4 with a hint naming the fix; bad input is one line,
exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Run


def test_add_current_review_history_list(cli: Run) -> None:
    made = cli("--json", "memory", "store", "/project", "We ship on Fridays.")
    fid = made.json()["id"]
    added = cli(
        "--json",
        "narrative",
        "add",
        "Fridays.",
        "--reason",
        "weekly",
        "--memory",
        fid,
        "--scope",
        "project",
    )
    assert added.code == 0, added.err
    n = added.json()
    assert (n["version"], n["usable"], n["memory_ids"]) == (1, True, [fid])
    shown = cli("narrative", "current", "--scope", "project")
    assert shown.code == 0 and "project/default v1 current" in shown.out and "Fridays." in shown.out
    assert cli("memory", "forget", fid, "--reason", "changed").code == 0
    withheld = cli("narrative", "current", "--scope", "project")
    assert withheld.code == 0 and "not to be relied on until reviewed: Fridays." in withheld.out
    assert "withheld: review needed" in withheld.out and f"forgotten {fid}" in withheld.out
    early = cli("narrative", "review", n["narrative_id"], "--note", "fine")
    assert early.code == 4 and "restore(" in early.err
    assert cli("memory", "restore", fid, "--reason", "back").code == 0
    still = cli("--json", "narrative", "current", "--scope", "project").json()
    assert still["narrative"] is None and still["narrative_review"]["source_issues"] == [
        {
            "ref": fid,
            "issue": "forgotten",
            "live": False,
            "at": still["narrative_review"]["source_issues"][0]["at"],
        }
    ]
    listed = cli("narrative", "list")
    assert listed.code == 0 and "text withheld" in listed.out
    past = cli("narrative", "history", "--scope", "project")
    assert past.code == 0 and "Fridays." in past.out
    ok = cli("narrative", "review", n["narrative_id"], "--note", "compared")
    assert ok.code == 0 and "current" in ok.out
    assert "Fridays." in cli("narrative", "current", "--scope", "project").out


def test_bad_input_is_one_line_and_nothing_is_written(cli: Run) -> None:
    assert cli("narrative", "add", "x").code == 2  # --reason is required
    claims = cli("narrative", "add", "x", "--reason", "r", "--claim", "C1")
    assert claims.code == 3 and "no claim with id C1" in claims.err
    link = cli("narrative", "add", "x", "--reason", "r", "--link", "nope")
    assert link.code == 2 and "SOURCE:relation:TARGET" in link.err
    assert cli("narrative", "list").out.strip() == "no narratives yet"
    unlinked = cli("narrative", "add", "A plain account.", "--reason", "r")
    assert unlinked.code == 0 and "unlinked narrative" in unlinked.err


def test_a_narrative_on_a_claim_and_both_in_the_audit(cli: Run) -> None:
    """Decisions 0098, 0099: --claim takes an adopted claim; a withdrawal withholds the
    narrative; memory audit lists the claim's and the narrative's decisions."""
    fid = cli("--json", "memory", "remember", "June.", "--source", "notice").json()["fact"]["id"]
    cid = cli(
        "--json",
        "claim",
        "create",
        "June.",
        "--type",
        "plan",
        "--reason",
        "from it",
        "--about",
        fid,
    ).json()["id"]
    early = cli("narrative", "add", "June.", "--reason", "weekly", "--claim", cid)
    assert early.code == 4 and "adopt_claim(" in early.err and "\n" not in early.err.strip()
    assert cli("claim", "evidence", cid, "--memory", fid, "--note", "the notice").code == 0
    assert cli("claim", "adopt", cid, "--reason", "the plan").code == 0
    added = cli(
        "--json",
        "narrative",
        "add",
        "June.",
        "--reason",
        "weekly",
        "--claim",
        cid[:12],
        "--scope",
        "project",
    )
    assert added.code == 0 and added.json()["claim_ids"] == [cid]
    assert cli("claim", "withdraw", cid, "--reason", "dropped").code == 0
    withheld = cli("narrative", "current", "--scope", "project")
    assert "withheld: review needed" in withheld.out and f"claim_withdrawn {cid}" in withheld.out
    audit = cli("memory", "audit", "--limit", "6").out.splitlines()
    assert f"withdraw_claim {cid} by default: dropped" in audit[0]
    assert f"narrate {added.json()['narrative_id']} by default: weekly" in audit[1]
    assert any(f"adopt_claim {cid} by default: the plan" in line for line in audit)
    entry = cli("--json", "memory", "audit", "--limit", "1").json()[0]
    assert (entry["claim_id"], entry["narrative_id"], entry["memory_id"]) == (cid, None, None)
