"""``memory recall --now TIME``: times the query names are read against it, and
``--explain`` shows what they added; a bad time is one line, exit 2, nothing written."""

from __future__ import annotations

from collections.abc import Callable

from cli_helpers import Run

from embornal import Memory
from embornal.domain.recall.ranking import ENTITY_WEIGHT, TEMPORAL_WEIGHT

ASKED = "2026-12-02T15:00:00Z"  # a Wednesday


def test_now_reads_the_time_named_and_explain_shows_it(
    cli: Run, stored: Callable[..., str]
) -> None:
    near = stored("/chat/s1", "We went hiking in the hills.", at="2026-11-28T10:00:00Z")
    far = stored("/chat/s2", "We went hiking by the lake.", at="2026-10-03T10:00:00Z")
    asked = ("hiking last weekend", "--mode", "keyword", "--now", ASKED, "--no-reinforce")
    got = cli("--json", "memory", "recall", *asked)
    assert got.code == 0, got.err
    hits = got.json()
    assert [h["fact"]["id"] for h in hits] == [near, far]
    assert hits[0]["parts"]["temporal"] == TEMPORAL_WEIGHT
    assert hits[0]["parts"]["time_window"] == "'last weekend' 2026-11-28..2026-11-30"
    shown = cli("memory", "recall", *asked, "--explain")
    said = f"{TEMPORAL_WEIGHT:.3f}"
    assert f"time      {said} ('last weekend' 2026-11-28..2026-11-30)" in shown.out
    assert f"+ time {said}" in shown.out
    plain = cli("--json", "memory", "recall", "hiking", "--mode", "keyword", "--no-reinforce")
    assert {h["parts"]["temporal"] for h in plain.json()} == {None}


def test_a_bad_now_is_one_line_exit_2(cli: Run, stored: Callable[..., str]) -> None:
    fact = stored("/chat/s1", "We went hiking in the hills.")
    got = cli("memory", "recall", "hiking", "--now", "last week")
    assert got.code == 2
    assert got.err.startswith("embornal: now must be an ISO-8601 time")
    assert len(got.err.strip().splitlines()) == 1
    with Memory.open() as mem:
        assert mem.show(fact).fact.recall_count == 0


def test_explain_shows_the_names_the_query_mentions(cli: Run, stored: Callable[..., str]) -> None:
    joanna = stored("/chat/s1", "Joanna: my hobbies are hiking and writing.")
    stored("/chat/s2", "Nate: my hobbies are gaming and turtles.")
    asked = ("What are Joanna's hobbies?", "--mode", "keyword", "--no-reinforce")
    got = cli("--json", "memory", "recall", *asked)
    assert got.code == 0, got.err
    hits = got.json()
    assert hits[0]["fact"]["id"] == joanna
    assert hits[0]["parts"]["entity"] == ENTITY_WEIGHT
    assert hits[0]["parts"]["entities"] == ["joanna"]
    shown = cli("memory", "recall", *asked, "--explain")
    assert f"names     {ENTITY_WEIGHT:.3f} (joanna)" in shown.out
    assert f"+ names {ENTITY_WEIGHT:.3f}" in shown.out
