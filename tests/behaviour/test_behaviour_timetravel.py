"""Time travel on both sides (local Memory, remote client): the same answers."""

from __future__ import annotations

import pytest

from embornal import FixedClock
from embornal.errors import InvalidTime
from embornal.interfaces.api import MemoryAPI


def test_reads_as_of_a_past_time(alice: MemoryAPI, clock: FixedClock) -> None:
    old = alice.store("/alice/p", "Meet at noon.")
    clock.advance(days=1)
    new = alice.supersede(old.id, "Meet at one.")
    clock.advance(days=1)
    then = "2 days ago"  # the clock moved two days since the store: that very instant
    assert [v.fact.id for v in alice.cat("/alice/p", as_of=then)] == [old.id]
    assert [h.fact.id for h in alice.recall("meet", as_of="1 day ago", mode="keyword")] == [new.id]
    detail = alice.show(old.id, as_of=then)
    assert detail.fact.state == "active" and detail.as_of is not None
    assert alice.show(old.id, as_of="now").fact.state == "superseded"
    assert [e.path for e in alice.ls("/", as_of=then)] == ["/alice"]  # the guide: with all
    assert [e.path for e in alice.ls("/", as_of=then, all=True)] == ["/alice", "/memory"]
    assert [c.path for c in alice.tree("/alice", as_of=then).children] == ["/alice/p"]
    assert [f.id for f in alice.find("fact", under="/alice", as_of=then)] == [old.id]
    with pytest.raises(InvalidTime):
        alice.recall("meet", as_of="whenever")
