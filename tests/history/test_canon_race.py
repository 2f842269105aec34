"""memory-as-history's race: "Two connections racing ... a forget against a canonize: the final
state obeys the rules and the log explains it" (decision 0078: the membership is an
event of the memory's own stream, so the loser is decided again on the winner's state).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.race_helpers import after_first_load

from embornal import Memory
from embornal.domain.clock import FixedClock
from embornal.errors import EmbornalError, ProtocolViolation


def _race(db_path: Path, clock: FixedClock, one: object, two: object) -> list[object]:
    """Run two callables on two memories (two connections) of one database at once."""
    out: list[object] = [None, None]
    start = threading.Barrier(2)

    def run(i: int, work: object) -> None:
        with Memory.open(db_path, clock=clock) as mem:
            start.wait()
            try:
                out[i] = work(mem)  # type: ignore[operator]
            except EmbornalError as e:
                out[i] = e

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate((one, two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _check(memory: Memory, fid: str, canonized: object, forgot: object) -> None:
    fact = memory.show(fid).fact
    scopes = [e.scope for e in memory.chronicle.list_canon()]
    types = [e.type for e in memory.history(fid)]
    assert not (fact.state == "forgotten" and scopes)  # never a canon entry on a tombstone
    if fact.state == "forgotten":
        assert isinstance(canonized, ProtocolViolation)
        assert "restore(memory_id, reason)" in (canonized.hint or "")
        assert "MemoryCanonized" not in types
    else:
        assert scopes == ["task"] and isinstance(forgot, ProtocolViolation)
        assert "decanonize(memory_id, reason)" in (forgot.hint or "")
        assert "FactForgotten" not in types


@pytest.mark.parametrize("attempt", range(5))
def test_a_forget_racing_a_canonize_on_two_connections_ends_by_the_rules(
    memory: Memory, db_path: Path, clock: FixedClock, attempt: int
) -> None:
    """Either the forget wins (the canonize is refused: restore first) or the canonize
    wins (the forget is refused: decanonize first); the log holds only the winner."""
    fid = memory.store("/a", "Contested focus.").id
    canonized, forgot = _race(
        db_path,
        clock,
        lambda m: m.chronicle.canonize(fid, "task", reason="focus"),
        lambda m: m.forget(fid, reason="drop"),
    )
    _check(memory, fid, canonized, forgot)


def test_a_forget_landing_between_a_canonize_load_and_append(
    memory: Memory, db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forget lands after the canonize loaded the memory: the canonize's append
    fails its expected version, and the retry decides on the forgotten memory."""
    fid = memory.store("/a", "Contested focus.").id

    def other() -> None:
        with Memory.open(db_path, clock=clock) as m:
            m.forget(fid, reason="drop")

    loads = after_first_load(memory, monkeypatch, other)
    with pytest.raises(ProtocolViolation) as refused:
        memory.chronicle.canonize(fid, "task", reason="focus")
    assert len(loads) == 2  # loaded again after the other writer
    _check(memory, fid, refused.value, None)


def test_a_canonize_landing_between_a_forget_load_and_append(
    memory: Memory, db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fid = memory.store("/a", "Contested focus.").id

    def other() -> None:
        with Memory.open(db_path, clock=clock) as m:
            m.chronicle.canonize(fid, "task", reason="focus")

    after_first_load(memory, monkeypatch, other)
    with pytest.raises(ProtocolViolation) as refused:
        memory.forget(fid, reason="drop")
    _check(memory, fid, None, refused.value)
