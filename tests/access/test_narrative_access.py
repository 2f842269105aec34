"""Property: a subject sees exactly the narrative versions every dependency of which it
may read (an unlinked one: as a fact its narrator would store at /narratives), and one
it may not see answers as an id never used (decision 0087). Random memories stored by
random subjects with random visibility, random narratives over them, read as a person
and as an assistant, through every narrative read."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import NotFound

SUBJECTS = ["default", "alice", "bob"]
VISIBILITY = ["shared", "private", "restricted:alice", "restricted:bob"]

fact_st = st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(VISIBILITY))
# (narrator, indexes of the facts it names, scope)
narrative_st = st.tuples(
    st.sampled_from(SUBJECTS),
    st.lists(st.integers(0, 5), max_size=3, unique=True),
    st.sampled_from(["a", "b"]),
)


def _readable(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    facts=st.lists(fact_st, min_size=6, max_size=6),
    narratives=st.lists(narrative_st, min_size=1, max_size=5),
    purge=st.booleans(),
)
def test_narratives_show_only_what_every_dependency_lets_the_reader_see(
    facts: list[tuple[str, str]], narratives: list[tuple[str, list[int], str]], purge: bool
) -> None:
    from datetime import UTC, datetime

    with tempfile.TemporaryDirectory() as tmp:
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
        with Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
            for who in ("alice", "bob"):  # each may read, write and delete what is shared
                for action in ("read", "write", "delete"):
                    mem.policy_add("p", [who, "path:/*", action])
            ids = [
                mem.as_subject(who).store(f"/f/{i}", f"fact {i}", visibility=vis).id
                for i, (who, vis) in enumerate(facts)
            ]
            made: list[tuple[str, tuple[str, ...]]] = []
            for who, picks, scope in narratives:
                writer = mem.as_subject(who)
                deps = [ids[i] for i in picks]
                if not all(_readable(writer, d) for d in deps):
                    try:
                        writer.chronicle.narrate("x", reason="r", memory_ids=deps)
                    except NotFound:
                        continue  # a hidden dependency is refused as a missing one
                    raise AssertionError(f"{who} narrated over a fact it may not read")
                n = writer.chronicle.narrate(f"by {who}", reason="r", memory_ids=deps, scope=scope)
                made.append((n.narrative_id, tuple(deps)))
                clock.advance(seconds=1)
            before = {
                (who, kind): {d for d in ids if _readable(mem.as_subject(who, kind), d)}
                for who in SUBJECTS
                for kind in ("person", "assistant")
            }
            if purge:  # a purged dependency keeps the narrative as hidden as it was
                mem.as_subject(facts[0][0]).purge(ids[0], reason="privacy")
            absent = "0" * 26
            for who in SUBJECTS:
                for kind in ("person", "assistant"):
                    reader = mem.as_subject(who, kind)
                    seen = {n.narrative_id for n in reader.chronicle.narrative_history(limit=1000)}
                    wanted = {nid for nid, deps in made if set(deps) <= before[(who, kind)]}
                    unlinked = {nid for nid, deps in made if not deps}
                    assert seen - unlinked == wanted - unlinked, (who, kind)
                    assert unlinked <= seen  # every subject here may read at /narratives
                    for nid, _ in made:
                        if nid in seen:
                            continue
                        try:
                            reader.chronicle.review_narrative(nid, note="x")
                        except NotFound as hidden:
                            try:
                                reader.chronicle.review_narrative(absent, note="x")
                            except NotFound as missing:
                                assert str(hidden).replace(nid, absent) == str(missing)
                        else:
                            raise AssertionError(f"{who} reviews a narrative it may not see")
                    listed = {n.narrative_id for n in reader.chronicle.list_narratives(limit=1000)}
                    assert listed <= seen
                    for scope in ("a", "b"):
                        view = reader.chronicle.current_narrative(scope=scope)
                        shown = view.narrative or view.narrative_review
                        if shown is not None:
                            assert shown.narrative_id in seen


def test_an_unlinked_narrative_is_read_as_a_fact_its_narrator_stores_at_narratives(
    memory: Memory,
) -> None:
    """A token's subject reads its own facts: it sees its own unlinked narrative, not
    another's (decision 0087)."""
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    for who in ("alice", "bob"):
        memory.token_add(who)  # the default rules of a token's subject
    mine = alice.chronicle.narrate("Alice's account.", reason="r", scope="s")
    assert [n.narrative_id for n in alice.chronicle.list_narratives()] == [mine.narrative_id]
    assert bob.chronicle.list_narratives() == []
    assert bob.chronicle.current_narrative(scope="s").narrative is None
    assert memory.chronicle.current_narrative(scope="s").narrative is not None  # default
