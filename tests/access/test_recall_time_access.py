"""The time signal and path diversity see only what the caller may read: a hidden fact of
the time named, or on the same path, changes nothing in another subject's recall."""

from __future__ import annotations

from pathlib import Path

from embornal import FixedClock, Memory
from embornal.domain.recall.ranking import FusionSettings
from embornal.service.results import RecallHit

ASKED = "2026-12-02T15:00:00Z"


def _seen(hits: list[RecallHit]) -> list[tuple[str, float, float | None, float | None, str | None]]:
    return [
        (
            h.fact.content,
            round(h.score, 9),
            h.parts.temporal,
            h.parts.diversity,
            h.parts.time_window,
        )
        for h in hits
    ]


def _open(path: Path, clock: FixedClock, hidden: bool) -> Memory:
    mem = Memory.open(path, clock=clock, fusion=FusionSettings(path_diversity=0.1))
    mem.store(
        "/team/chat",
        "We went hiking in the hills.",
        at="2026-11-20T10:00:00Z",
        tags=["visibility=public"],
    )
    mem.store(
        "/team/chat",
        "We went hiking by the lake.",
        at="2026-10-03T10:00:00Z",
        tags=["visibility=public"],
    )
    if hidden:  # on the same path, of the very weekend asked about, and a better match
        mem.store(
            "/team/chat",
            "We went hiking hiking in the hills last weekend.",
            at="2026-11-28T10:00:00Z",
            tags=["visibility=private"],
        )
    mem.token_add("bob")
    mem.policy_add("p", ["bob", "tag:visibility=public", "read", "allow"])
    return mem


def test_a_hidden_fact_changes_nothing(tmp_path: Path, clock: FixedClock) -> None:
    runs = []
    for hidden in (False, True):
        mem = _open(tmp_path / f"{hidden}.db", clock, hidden)
        bob = mem.as_subject("bob")
        hits = bob.recall(
            "hiking in the hills last weekend", now=ASKED, mode="keyword", reinforce=False
        )
        runs.append(_seen(hits))
        owner = mem.recall(
            "hiking in the hills last weekend", now=ASKED, mode="keyword", reinforce=False
        )
        assert len(owner) == (3 if hidden else 2)
        mem.close()
    assert runs[0] == runs[1]
    assert [c for c, *_ in runs[0]] == [
        "We went hiking in the hills.",
        "We went hiking by the lake.",
    ]
