"""The conflict queue through ``Memory`` (decisions 0058–0060): found at store, at a
contradiction and by a scan; resolved only by a decision, atomically, once."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.errors import AmbiguousId, Conflict, InvalidInput, NotFound
from race_helpers import after_first_load


def _person(mem: Memory, path: str, name: str, *aliases: str) -> str:
    attrs: dict[str, object] = {"full_name": name}
    if aliases:
        attrs["aliases"] = list(aliases)
    return mem.store(path, name, kind="person", attributes=attrs).id


def test_a_duplicate_person_is_queued_at_store_and_nothing_else_changes(memory: Memory) -> None:
    ada = _person(memory, "/people/ada", "Ada Lovelace", "ada@example.org")
    again = _person(memory, "/people/a-lovelace", "A. Lovelace")
    _person(memory, "/people/grace", "Grace Hopper")
    memory.store("/notes", "Ada Lovelace wrote the first program.")
    (c,) = memory.conflicts()
    assert (c.conflict_class, c.status, c.detected_by) == ("duplicate", "open", "store")
    assert [m.id for m in c.members] == [ada, again] and c.suggested_keep == ada
    assert c.findings == ("names: initials agree",)
    assert all(m.state == "active" and m.confidence == 0.95 for m in c.members)
    assert memory.conflict(c.id[:6].lower()) == c
    assert memory.conflicts(fact_id=again) == [c] and memory.conflicts(status="resolved") == []
    assert memory.verify() == []


def test_a_shared_contact_with_two_names_is_a_contradiction(memory: Memory) -> None:
    _person(memory, "/people/r", "Robert Jones", "rj@example.org")
    _person(memory, "/people/m", "Mary Major", "RJ@Example.org")
    (c,) = memory.conflicts()
    assert c.conflict_class == "contradiction" and c.suggested_keep is None
    assert "the main names differ" in c.findings


def test_preferences_of_one_context_with_opposite_polarity(memory: Memory) -> None:
    def pref(path: str, polarity: str, context: str | None) -> str:
        attrs = {"polarity": polarity, **({"context": context} if context else {})}
        return memory.store(path, f"{polarity} tabs", kind="preference", attributes=attrs).id

    pref("/p/1", "likes", "food")
    old = pref("/p/2", "likes", "Indentation")
    new = pref("/p/3", "avoids", "indentation")
    pref("/p/4", "dislikes", None)
    (c,) = memory.conflicts()
    assert c.conflict_class == "contradiction" and c.suggested_keep == new
    assert [m.id for m in c.members] == [old, new]


def test_keep_confirms_one_forgets_the_others_in_one_decision(memory: Memory) -> None:
    ada = _person(memory, "/people/ada", "Ada Lovelace")
    dup = _person(memory, "/people/ada2", "ada lovelace")
    (c,) = memory.conflicts()
    done = memory.resolve_conflict(c.id, keep=ada[:20], reason="the same Ada")
    assert (done.status, done.outcome, done.kept_id, done.archived) == (
        "resolved",
        "keep",
        ada,
        (dup,),
    )
    assert done.reason == "the same Ada" and done.resolved_by == "default"
    kept, gone = done.members
    assert kept.confidence is not None and kept.confidence > 0.95 and kept.state == "active"
    assert gone.state == "forgotten"
    assert [e.reason for e in memory.history(dup)][-1] == "the same Ada"
    assert memory.conflicts() == [] and memory.conflicts(status="all") == [done]
    with pytest.raises(Conflict, match="already resolved"):
        memory.resolve_conflict(c.id, both=True, reason="changed my mind")
    memory.restore(dup, reason="oops")  # the decision is restorable, the conflict stays closed
    assert memory.conflict(c.id).status == "resolved"
    assert memory.scan_conflicts(stale=False) == []  # never reopened by detection
    assert memory.verify() == []


def test_both_lets_all_stand_and_bad_decisions_write_nothing(memory: Memory) -> None:
    a = _person(memory, "/people/1", "Jonathan Smith")
    b = _person(memory, "/people/2", "Jonathon Smith")
    (c,) = memory.conflicts()
    before = len(list(memory._store.read_all()))
    with pytest.raises(InvalidInput, match="one of --keep ID, --merge ID or --both"):
        memory.resolve_conflict(c.id, keep=a, both=True, reason="x")
    with pytest.raises(InvalidInput, match="one of the conflict's facts"):
        memory.resolve_conflict(c.id, keep="01ZZZZ", reason="x")
    with pytest.raises(AmbiguousId):
        memory.resolve_conflict(c.id, keep=a[:4], reason="x")
    with pytest.raises(InvalidInput, match="reason"):
        memory.resolve_conflict(c.id, both=True, reason=" ")
    with pytest.raises(InvalidInput, match="a conflict id is K and up to 15"):
        memory.conflict("01ABC")
    with pytest.raises(NotFound, match="no conflict with id KFFFF"):
        memory.conflict("KFFFF")
    with pytest.raises(InvalidInput, match="status must be one of open, resolved, all"):
        memory.conflicts(status="closed")
    assert len(list(memory._store.read_all())) == before
    # none of them is both (memory-as-history: resolve_conflict without adopted_memory_id)
    done = memory.resolve_conflict(c.id, reason="father and son")
    assert done.outcome == "both" and all(m.state == "active" for m in done.members)
    assert {m.id for m in done.members} == {a, b}


def test_a_forgotten_member_does_not_close_its_conflict_nor_can_it_be_kept(
    memory: Memory,
) -> None:
    a = _person(memory, "/people/1", "Marie Curie")
    b = _person(memory, "/people/2", "Marie Curie")
    memory.forget(b, reason="stored twice")
    (c,) = memory.conflicts()
    assert c.status == "open"
    with pytest.raises(Conflict, match="not active"):
        memory.resolve_conflict(c.id, keep=b, reason="x")
    done = memory.resolve_conflict(c.id, keep=a, reason="x")
    assert done.archived == ()  # the forgotten one is not forgotten twice


def test_a_contradiction_by_another_fact_enters_the_queue(memory: Memory) -> None:
    old = memory.store("/build", "The build uses Poetry.")
    new = memory.store("/build", "The build uses uv.")
    memory.contradict(old.id, by=new.id, reason="the README says uv")
    memory.contradict(old.id, by=new.id, reason="and the lock file")
    found = memory.conflicts(conflict_class="contradiction")
    assert len(found) == 2  # each contradiction is its own conflict (its log position)
    assert {tuple(m.id for m in c.members) for c in found} == {(old.id, new.id)}
    assert all(c.detected_by == "contradict" for c in found)
    assert "confidence below the review threshold" in found[0].findings


def test_a_contradiction_above_the_review_threshold_or_without_a_pair_opens_none(
    memory: Memory,
) -> None:
    old = memory.store("/build", "The build uses Poetry.")
    new = memory.store("/build", "The build uses uv.")
    assistant = memory.as_subject("default", "assistant")  # weight 0.2: 0.95 -> 0.76
    assistant.contradict(old.id, by=new.id, reason="the README says uv")
    memory.contradict(new.id, reason="no pair named")  # 0.95 -> 0.475, but alone
    assert memory.conflicts() == []


def test_a_scan_finds_texts_and_stale_facts_once(memory: Memory, clock: FixedClock) -> None:
    a = memory.store("/n/a", "The build uses uv and ruff for linting the whole project.")
    b = memory.store("/n/b", "the build uses uv and ruff for linting the whole project!")
    memory.store("/n/c", "Lunch is at noon on Fridays.")
    clock.advance(days=2000)
    memory.confirm(a.id)
    memory.confirm(b.id)
    found = memory.scan_conflicts()
    classes = sorted(c.conflict_class for c in found)
    assert classes.count("duplicate") == 1 and "stale" in classes
    (dup,) = [c for c in found if c.conflict_class == "duplicate"]
    assert {m.id for m in dup.members} == {a.id, b.id}
    assert memory.scan_conflicts() == []  # opened once
    stale = next(c for c in found if c.conflict_class == "stale")
    kept = memory.resolve_conflict(stale.id, keep=stale.members[0].id, reason="still true")
    assert kept.members[0].last_confirmed_at == clock.now()
    assert memory.verify() == []
    assert memory.rebuild() > 0 and memory.verify() == []
    assert memory.conflict(kept.id) == kept


def test_two_decisions_racing_one_wins(
    db_path: Path, clock: FixedClock, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = _person(memory, "/people/1", "Alan Turing")
    b = _person(memory, "/people/2", "Alan Turing")
    (c,) = memory.conflicts()
    other = Memory.open(db_path, clock=clock)
    try:
        after_first_load(
            memory, monkeypatch, lambda: other.resolve_conflict(c.id, keep=b, reason="b")
        )
        with pytest.raises(Conflict, match="already resolved: keep"):
            memory.resolve_conflict(c.id, keep=a, reason="a")
    finally:
        other.close()
    done = memory.conflict(c.id)
    assert done.kept_id == b and memory.show(a).fact.state == "forgotten"
    assert memory.show(b).fact.state == "active" and memory.verify() == []


def test_the_entity_keys_of_an_old_memory_are_filled_by_the_migration(tmp_path: Path) -> None:
    from embornal.storage.common import conflicts as conflict_projection
    from embornal.storage.sqlite.connect import connect

    path = tmp_path / "m.db"
    with Memory.open(path) as mem:
        _person(mem, "/p/1", "Emmy Noether")
    conn = connect(str(path))
    conn.execute("DELETE FROM entity_keys")
    conflict_projection.fill_entity_keys(conn)
    count = conn.execute("SELECT count(*) FROM entity_keys").fetchone()[0]
    conn.close()
    assert count > 0
    with Memory.open(path) as mem:
        _person(mem, "/p/2", "E. Noether")
        assert [c.conflict_class for c in mem.conflicts()] == ["duplicate"]


def test_with_a_model_a_store_finds_near_duplicates_by_meaning(smem: Memory) -> None:
    first = smem.store("/notes/a", "The deploy runs every night at two.")
    again = smem.store("/notes/b", "The deploy runs every night at two.")
    smem.store("/notes/c", "Lunch is served in the atrium on Fridays.")
    (c,) = smem.conflicts()
    assert c.findings == ("near-duplicate text (meaning)",) and c.detected_by == "store"
    assert [m.id for m in c.members] == [first.id, again.id] and c.suggested_keep == first.id
    assert c.score >= 0.95 and smem.verify() == []


def test_merge_of_three_lands_in_one_transaction_with_the_resolution(memory: Memory) -> None:
    keep = memory.store(
        "/people/ada",
        "Ada.",
        kind="person",
        attributes={"full_name": "Ada Lovelace", "aliases": ["Countess"]},
    ).id
    two = memory.store(
        "/people/ada2", "Ada.", kind="person", attributes={"full_name": "Lovelace Ada"}
    ).id
    three = memory.store(
        "/people/ada3", "Ada.", kind="person", attributes={"full_name": "Ada Lovelace"}
    ).id
    found = [c for c in memory.conflicts() if {m.id for m in c.members} == {keep, two}]
    (c,) = found
    before = len(list(memory._store.read_all()))
    done = memory.resolve_conflict(c.id, merge=keep, reason="one Ada")
    assert (done.outcome, done.archived) == ("merge", (two,))
    appended = list(memory._store.read_all())[before:]
    assert len({e.position for e in appended}) == len(appended)
    assert {e.type for e in appended} >= {"ConflictResolved", "FactMerged", "FactForgotten"}
    assert "Lovelace Ada" in memory.show(keep).fact.attributes["aliases"]
    assert memory.show(three).fact.state == "active"  # another conflict's member
    assert memory.verify() == []


def test_merge_of_different_kinds_or_a_gone_survivor_writes_nothing(memory: Memory) -> None:
    a = memory.store(
        "/people/ada", "Ada.", kind="person", attributes={"full_name": "Ada Lovelace"}
    ).id
    b = memory.store(
        "/people/ada2", "Ada.", kind="person", attributes={"full_name": "Lovelace Ada"}
    ).id
    (c,) = memory.conflicts()
    memory.forget(a, reason="gone")
    with pytest.raises(Conflict, match="not active"):
        memory.resolve_conflict(c.id, merge=a, reason="x")
    with pytest.raises(Conflict, match="nothing to merge"):
        memory.resolve_conflict(c.id, merge=b, reason="x")
    assert memory.conflict(c.id).status == "open"


def _pref(memory: Memory, path: str, polarity: str, context: str = "indentation") -> str:
    attrs = {"polarity": polarity, "context": context}
    return memory.store(path, f"{polarity} tabs", kind="preference", attributes=attrs).id


def test_preferences_of_one_context_open_a_superseding_proposal(memory: Memory) -> None:
    old = _pref(memory, "/p/old", "likes")
    new = _pref(memory, "/p/new", "avoids")
    (c,) = memory.conflicts()
    (listed,) = memory.proposals()
    assert listed.source == "conflict" and listed.status == "open" and c.id in listed.title
    made = memory.proposal(listed.id)
    assert [(i.type, i.fact_id) for i in made.items] == [("link", new), ("archive", old)]
    assert made.items[0].fields["relation"] == "supersedes"
    assert memory.show(old).fact.state == "active"  # nothing decided by the detection
    memory.approve(made.id)
    assert memory.show(old).fact.state == "forgotten"
    assert memory.conflict(c.id).status == "open"  # the conflict waits for its own decision
    done = memory.resolve_conflict(c.id, keep=new, reason="newest wins")
    assert done.outcome == "keep" and done.archived == ()
    memory.scan_conflicts()
    assert len(memory.proposals()) == 1  # a conflict opened before opens nothing again


def test_no_proposal_names_a_preference_the_storer_may_not_read(memory: Memory) -> None:
    memory.token_add("alice")
    memory.token_add("bob")
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    alice.store(
        "/private/alice/p",
        "likes tabs",
        kind="preference",
        attributes={"polarity": "likes", "context": "indentation"},
    )
    bob.store(
        "/private/bob/p",
        "avoids tabs",
        kind="preference",
        attributes={"polarity": "avoids", "context": "indentation"},
    )
    assert len(memory.conflicts()) == 1  # a person who may read both sees the conflict
    assert bob.proposals() == [] and memory.proposals() == []
