"""The spine through the console script: memory confirm, contradict and evidence print
the confidence after and before; show prints confidence, c_eff, stale and the evidence;
bad input is one line naming what is allowed, exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Run

TYPES = "quote, uri, conversation, document, observation"


def _stored(cli: Run) -> str:
    made = cli("--json", "memory", "store", "/projects/x", "X builds with uv.")
    assert made.code == 0, made.err
    fact_id: str = made.json()["id"]
    return fact_id


def test_confirm_contradict_evidence_and_show(cli: Run) -> None:
    fact_id = _stored(cli)
    other = cli("--json", "memory", "store", "/projects/x", "X builds with Poetry.").json()["id"]
    up = cli("memory", "confirm", fact_id[:16], "--evidence", "quote:Still uv.", "--reason", "ok")
    assert up.code == 0, up.err
    assert up.out == f"{fact_id} confidence 0.975 (was 0.950)\n"
    down = cli(
        "memory",
        "contradict",
        fact_id,
        "--by",
        other,
        "--reason",
        "README says Poetry",
        "--evidence",
        "uri:https://example.org/readme",
    )
    assert down.code == 0, down.err
    assert down.out.startswith(f"{fact_id} confidence 0.") and "(was 0.975)" in down.out
    more = cli(
        "--json",
        "memory",
        "evidence",
        fact_id,
        "document:ADR\x1b[31m 12\nline 2",
        "--note",
        "the record",
    )
    assert more.code == 0, more.err
    detail = more.json()
    assert detail["fact"]["id"] == fact_id
    assert {"confidence", "c_eff", "stale", "last_confirmed_at"} <= set(detail)
    assert detail["evidence"][-1] == {
        "type": "document",
        "value": "ADR\x1b[31m 12\nline 2",
        "note": "the record",
    }

    shown = cli("memory", "show", fact_id)
    assert shown.code == 0, shown.err
    lines = shown.out.splitlines()
    fields = {ln[:15].rstrip(": "): ln[15:] for ln in lines if ln[:15].strip()}
    assert fields["confidence"] == f"{detail['confidence']:.3f}"
    assert fields["c_eff"] == f"{detail['c_eff']:.3f}" and fields["stale"] == "no"
    assert fields["evidence"] == "quote:Still uv."
    assert "               document:ADR\\x1b[31m 12 line 2 (the record)" in lines
    assert "\x1b" not in shown.out
    history = cli("memory", "history", fact_id).out
    assert "FactConfirmed" in history and "FactContradicted" in history
    assert "FactEvidenceAdded" in history and "README says Poetry" in history


def test_bad_input_is_exit_2_and_writes_nothing(cli: Run) -> None:
    fact_id = _stored(cli)
    before = cli("--json", "memory", "history", fact_id).json()
    no_reason = cli("memory", "contradict", fact_id)
    assert no_reason.code == 2 and "--reason" in no_reason.err
    for args in (
        ("memory", "evidence", fact_id, "rumour:so I heard"),
        ("memory", "confirm", fact_id, "--evidence", "gossip:x"),
        ("memory", "contradict", fact_id, "--reason", "r", "--evidence", "hearsay:x"),
    ):
        bad = cli(*args)
        lines = bad.err.splitlines()
        assert bad.code == 2 and len(lines) == 1 and lines[0].startswith("embornal: "), bad.err
        assert TYPES in lines[0], lines[0]
    no_type = cli("memory", "evidence", fact_id, "just words")
    assert no_type.code == 2 and TYPES in no_type.err
    bad_uri = cli("memory", "evidence", fact_id, "uri:not a uri")
    assert bad_uri.code == 2 and bad_uri.out == ""
    assert cli("--json", "memory", "history", fact_id).json() == before
    missing = cli("memory", "confirm", "0" * 26)
    assert missing.code == 3
