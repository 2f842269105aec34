"""The conflict queue, the same on a local Memory and over REST (see conftest.py)."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import Conflict, InvalidInput, NotFound
from embornal.interfaces.api import MemoryAPI


def _person(mem: MemoryAPI, path: str, name: str, **more: object) -> str:
    attrs = {"full_name": name}
    return mem.store(path, name, kind="person", attributes=attrs, **more).id  # type: ignore[arg-type]


def test_a_duplicate_is_listed_shown_and_resolved(alice: MemoryAPI) -> None:
    a = _person(alice, "/people/ada", "Ada Lovelace")
    b = _person(alice, "/people/ada-2", "Lovelace Ada")
    (c,) = alice.conflicts()
    assert c.conflict_class == "duplicate" and {m.id for m in c.members} == {a, b}
    assert alice.conflict(c.id[:8]) == c
    assert alice.conflicts(conflict_class="stale") == []
    done = alice.resolve_conflict(c.id, keep=a, reason="the same Ada")
    assert (done.outcome, done.kept_id, done.archived, done.reason) == (
        "keep",
        a,
        (b,),
        "the same Ada",
    )
    assert alice.show(b).fact.state == "forgotten"
    assert alice.conflicts(status="resolved") == [done]
    with pytest.raises(Conflict):
        alice.resolve_conflict(c.id, both=True, reason="again")


def test_bad_input_is_refused_the_same_way(alice: MemoryAPI) -> None:
    _person(alice, "/people/1", "Alan Turing")
    _person(alice, "/people/2", "Alan Turing")
    (c,) = alice.conflicts()
    with pytest.raises(InvalidInput):
        alice.resolve_conflict(c.id, keep=c.members[0].id, both=True, reason="two of them")
    with pytest.raises(InvalidInput):
        alice.resolve_conflict(c.id, keep="01ZZZZZZ", reason="not a member")
    with pytest.raises(InvalidInput):
        alice.conflicts(status="closed")
    with pytest.raises(NotFound):
        alice.conflict("KFFFFFFF")
    assert alice.conflict(c.id).status == "open"


def test_a_conflict_with_a_hidden_fact_does_not_exist_for_the_reader(
    alice: MemoryAPI, bob: MemoryAPI, memory: Memory
) -> None:
    _person(alice, "/people/z", "Zed Zulu", visibility="private")
    mine = _person(bob, "/people/zed", "Zed Zulu")
    (state,) = memory._store.conflicts.conflict_states()
    assert mine in state.members
    assert bob.conflicts() == [] and bob.conflicts(fact_id=mine) == []
    assert bob.scan_conflicts(stale=False) == []
    absent = "K" + "F" * 15
    with pytest.raises(NotFound) as hidden:
        bob.conflict(state.conflict_id)
    with pytest.raises(NotFound) as missing:
        bob.conflict(absent)
    assert str(hidden.value).replace(state.conflict_id, absent) == str(missing.value)
    with pytest.raises(NotFound):
        bob.resolve_conflict(state.conflict_id, keep=mine, reason="mine")


def test_merge_resolves_a_duplicate_by_merging_the_others(alice: MemoryAPI) -> None:
    a = _person(alice, "/people/ada", "Ada Lovelace")
    b = _person(alice, "/people/ada-2", "A. Lovelace")
    (c,) = alice.conflicts()
    done = alice.resolve_conflict(c.id, merge=a, reason="the same Ada")
    assert (done.outcome, done.kept_id, done.archived) == ("merge", a, (b,))
    assert alice.show(b).fact.state == "forgotten"
    assert "A. Lovelace" in alice.show(a).fact.attributes["aliases"]
    assert alice.history(b)[-1].reason == "the same Ada"
    with pytest.raises(Conflict):
        alice.resolve_conflict(c.id, merge=a, reason="again")
    with pytest.raises(InvalidInput):
        alice.resolve_conflict(c.id, merge=a, keep=a, reason="two ways")
