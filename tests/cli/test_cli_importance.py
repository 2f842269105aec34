"""Importance and lifetime through the console script: memory pin, unpin, weight,
lifetime, due and store --lifetime; show prints them; recall --explain the spine's part;
bad input is one line naming the allowed values, exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Run

LIFETIMES = "permanent, standard, ephemeral, until:YYYY-MM-DD"


def _stored(cli: Run, *extra: str) -> str:
    made = cli("--json", "memory", "store", "/projects/x", "X builds with uv.", *extra)
    assert made.code == 0, made.err
    fact_id: str = made.json()["id"]
    return fact_id


def test_pin_weight_lifetime_and_show(cli: Run) -> None:
    fact_id = _stored(cli)
    up = cli("memory", "pin", fact_id[:12], "--reason", "the team's rule")
    assert up.code == 0, up.err
    assert up.out == f"{fact_id} pinned, no weight, lifetime standard\n"
    again = cli("memory", "pin", fact_id)
    assert again.code == 0 and again.out == up.out
    heavy = cli("memory", "weight", fact_id, "0.9")
    assert heavy.out == f"{fact_id} pinned, weight 0.900, lifetime standard\n"
    life = cli("--json", "memory", "lifetime", fact_id, "until:2999-01-31", "--reason", "r")
    assert life.code == 0, life.err
    detail = life.json()
    assert detail["pinned"] is True and detail["user_weight"] == 0.9
    assert detail["lifetime"] == "until:2999-01-31" and detail["expired"] is False
    assert detail["expires_at"] == "2999-02-01T00:00:00.000000Z"
    assert detail["fact"]["lifetime"] == "until:2999-01-31"
    off = cli("memory", "weight", fact_id, "none")
    assert off.out == f"{fact_id} pinned, no weight, lifetime until:2999-01-31\n"
    down = cli("memory", "unpin", fact_id)
    assert down.out.startswith(f"{fact_id} not pinned")
    shown = cli("memory", "show", fact_id)
    fields = {ln[:15].rstrip(": "): ln[15:] for ln in shown.out.splitlines() if ln[:15].strip()}
    assert fields["pinned"] == "no" and fields["weight"] == "-"
    assert fields["lifetime"] == "until:2999-01-31" and fields["state"] == "active"
    history = cli("memory", "history", fact_id).out
    assert history.count("FactImportanceAdjusted") == 4 and "FactLifetimeChanged" in history


def test_store_with_a_lifetime_and_recall_explains_the_spine(cli: Run) -> None:
    fact_id = _stored(cli, "--lifetime", "permanent")
    cli("memory", "pin", fact_id)
    shown = cli("--json", "memory", "show", fact_id).json()
    assert shown["lifetime"] == "permanent"
    hits = cli("memory", "recall", "uv", "--explain", "--no-reinforce")
    assert hits.code == 0, hits.err
    assert "   spine     +0.150 (c 0.950, c_eff 0.950, pinned)" in hits.out
    assert "+ spine 0.150" in hits.out
    parts = cli("--json", "memory", "recall", "uv", "--no-reinforce").json()[0]["parts"]
    assert parts["pinned"] is True and parts["spine"] == 0.15 and parts["c"] == 0.95
    assert parts["stale"] is False and parts["user_weight"] is None


def test_due_lists_stale_facts(cli: Run) -> None:
    assert cli("memory", "due").out == (
        "nothing is due: every fact was confirmed recently enough\n"
    )
    old = _stored(cli, "--at", "2019-01-01T00:00:00Z")
    _stored(cli)
    due = cli("memory", "due", "--under", "/projects")
    assert due.code == 0, due.err
    assert due.out.startswith(f"{old} /projects/x  c_eff 0.") and "< 0.350" in due.out
    assert "X builds with uv." in due.out
    data = cli("--json", "memory", "due", "--limit", "1").json()
    assert [d["fact"]["id"] for d in data] == [old]
    assert set(data[0]) == {"fact", "confidence", "c_eff", "threshold", "since"}
    assert cli("memory", "due", "--limit", "0").code == 2


def test_bad_input_is_exit_2_and_writes_nothing(cli: Run) -> None:
    fact_id = _stored(cli)
    before = cli("--json", "memory", "history", fact_id).json()
    for args in (
        ("memory", "weight", fact_id, "1.5"),
        ("memory", "weight", fact_id, "-0.2"),
        ("memory", "weight", fact_id, "heavy"),
    ):
        bad = cli(*args)
        lines = bad.err.splitlines()
        assert bad.code == 2 and len(lines) == 1, bad.err
        assert "0..1" in lines[0] or "0 to 1" in lines[0], lines[0]
    for args in (
        ("memory", "lifetime", fact_id, "forever"),
        ("memory", "lifetime", fact_id, "until:2020-01-01"),
        ("memory", "lifetime", fact_id, "until:someday"),
    ):
        bad = cli(*args)
        lines = bad.err.splitlines()
        assert bad.code == 2 and len(lines) == 1 and lines[0].startswith("embornal: "), bad.err
    unknown = cli("memory", "lifetime", fact_id, "forever")
    assert LIFETIMES in unknown.err
    past = cli("memory", "store", "/projects/x", "Y.", "--lifetime", "until:2020-01-01")
    assert past.code == 2 and "in the past" in past.err
    assert cli("--json", "memory", "history", fact_id).json() == before
    assert len(cli("--json", "memory", "cat", "/projects/x").json()) == 1
    assert cli("memory", "pin", "0" * 26).code == 3
