"""Property (decision 0083): a subject sees exactly the claims all of whose cited memories it
may read (a claim citing none: its owner alone), and a claim it may not see answers as an id
never used: no claim ever tells a subject that a memory it may not read exists. Random
memories of random visibility by random subjects, claims citing random ones, read as a
person and as an assistant."""

from __future__ import annotations

import contextlib
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import NotFound

SUBJECTS = ["default", "alice", "bob"]
VISIBILITY = ["shared", "private", "restricted:alice", "restricted:bob"]

memory_st = st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(VISIBILITY))
claim_st = st.tuples(
    st.sampled_from(SUBJECTS),
    st.lists(st.integers(0, 5), max_size=3, unique=True),  # memories it is about
    st.lists(st.integers(0, 5), max_size=2, unique=True),  # memories cited as evidence
)


def _readable(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    memories=st.lists(memory_st, min_size=1, max_size=6),
    claims=st.lists(claim_st, min_size=1, max_size=6),
)
def test_claims_show_only_what_every_cited_memory_lets_the_reader_see(
    memories: list[tuple[str, str]], claims: list[tuple[str, list[int], list[int]]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
        with Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
            for who in ("alice", "bob"):
                for action in ("read", "write"):
                    mem.policy_add("p", [who, "path:/*", action])
            ids = [
                mem.as_subject(who).store(f"/m/{i}", f"memory {i}", visibility=vis).id
                for i, (who, vis) in enumerate(memories)
            ]
            made: list[tuple[str, str, set[str]]] = []  # (claim id, owner, cited)
            for owner, about, cited in claims:
                writer = mem.as_subject(owner)
                about_ids = [ids[i] for i in about if i < len(ids)]
                with contextlib.suppress(NotFound):  # citing a memory it may not read
                    claim = writer.chronicle.create_claim(
                        f"claim of {owner}", "assertion", about=about_ids
                    )
                    cites = set(about_ids)
                    for i in cited:
                        if i < len(ids):
                            with contextlib.suppress(NotFound):
                                writer.chronicle.add_claim_evidence(claim.id, memory_id=ids[i])
                                cites.add(ids[i])
                    made.append((claim.id, owner, cites))
                clock.advance(seconds=1)
            for subject in SUBJECTS:
                for kind in ("person", "assistant"):
                    reader = mem.as_subject(subject, kind)
                    readable = {i for i in ids if _readable(reader, i)}
                    wanted = {
                        cid
                        for cid, owner, cites in made
                        if cites <= readable and (cites or owner == subject)
                    }
                    listed = reader.chronicle.recall_claims(status="all", limit=1000).claims
                    assert {c.id for c in listed} == wanted, (subject, kind)
                    for c in listed:
                        assert {e.memory_id for e in c.evidence if e.memory_id} <= readable
                        assert set(c.about) <= readable
                    for cid, _, _ in made:
                        if cid in wanted:
                            continue
                        try:
                            reader.chronicle.claim(cid)
                        except NotFound as e:
                            assert e.message == f"no claim with id {cid}"
                        else:
                            raise AssertionError(f"{subject} saw claim {cid}")


def test_a_replacement_the_reader_may_not_see_is_not_named(tmp_path: Path) -> None:
    """A claim replaced by one citing a memory the reader may not read names no
    replacement to that reader (an id of a claim it may not see is not told), and the
    replacement names no replaced claim to a reader who may not see the replaced one."""
    clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
    with Memory.open(tmp_path / "m.db", clock=clock) as mem:
        mem.policy_add("p", ["alice", "path:/*", "read"])
        shared = mem.store("/m/shared", "The release is in June.", visibility="shared").id
        hidden = mem.store("/m/hidden", "The release moved to July.", visibility="private").id
        old = mem.chronicle.create_claim("The release is in June.", "plan", about=[shared])
        mem.chronicle.add_claim_evidence(old.id, memory_id=shared)
        mem.chronicle.adopt_claim(old.id, reason="the notice")
        new = mem.chronicle.create_claim("The release is in July.", "plan", about=[hidden])
        mem.chronicle.add_claim_evidence(new.id, memory_id=hidden)
        mem.chronicle.revise_claim(old.id, "moved", replacement_id=new.id)
        assert mem.chronicle.claim(old.id).replaced_by == new.id  # the owner sees both
        assert mem.chronicle.claim(new.id).replaces == old.id
        alice = mem.as_subject("alice")
        seen = alice.chronicle.claim(old.id)
        assert seen.status == "superseded"
        assert seen.replaced_by is None
        listed = alice.chronicle.recall_claims(status="all", limit=100).claims
        assert [c.id for c in listed] == [old.id]
        assert listed[0].replaced_by is None
