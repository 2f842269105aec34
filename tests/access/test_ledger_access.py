"""Property: claims seen through narratives and the audit log leak nothing (decisions
0083, 0087, 0098, 0099). Random memories stored by random subjects with random
visibility, random adopted claims over them (or over source labels only: the owner's
alone), random narratives resting on claims and memories; read by each subject as a
person and as an assistant:

* a narrative naming a claim is visible exactly when the reader may see the claim and
  read every memory the narrative names;
* the audit log's claim entries are exactly of the claims the reader may see, its
  narrative entries of the narrative versions it may see, its conflict entries of the
  conflicts whose both memories it may read, and every memory it names is one the
  reader may read.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import NotFound

SUBJECTS = ["default", "alice", "bob"]
VISIBILITY = ["shared", "private", "restricted:alice", "restricted:bob"]

fact_st = st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(VISIBILITY))
# (owner, indexes of the facts it cites: none means a source label only)
claim_st = st.tuples(
    st.sampled_from(SUBJECTS), st.lists(st.integers(0, 4), max_size=2, unique=True)
)
# (narrator, indexes of the claims it rests on, indexes of the memories, scope)
narrative_st = st.tuples(
    st.sampled_from(SUBJECTS),
    st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True),
    st.lists(st.integers(0, 4), max_size=1),
    st.sampled_from(["a", "b"]),
)


def _readable(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


def _sees_claim(mem: Memory, claim_id: str) -> bool:
    try:
        mem.chronicle.claim(claim_id)
    except NotFound:
        return False
    return True


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    facts=st.lists(fact_st, min_size=5, max_size=5),
    claims=st.lists(claim_st, min_size=4, max_size=4),
    narratives=st.lists(narrative_st, min_size=1, max_size=4),
)
def test_claims_leak_through_neither_narratives_nor_the_audit(
    facts: list[tuple[str, str]],
    claims: list[tuple[str, list[int]]],
    narratives: list[tuple[str, list[int], list[int], str]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
        with Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
            for who in ("alice", "bob"):
                for action in ("read", "write", "delete"):
                    mem.policy_add("p", [who, "path:/*", action])
            ids = [
                mem.as_subject(who).store(f"/f/{i}", f"fact {i}", visibility=vis).id
                for i, (who, vis) in enumerate(facts)
            ]
            claim_ids: list[str] = []
            for who, picks in claims:
                ledger = mem.as_subject(who).chronicle
                cited = [ids[i] for i in picks if _readable(mem.as_subject(who), ids[i])]
                c = ledger.create_claim(f"claim by {who}", "observation", reason="r")
                for fid in cited:
                    ledger.add_claim_evidence(c.id, memory_id=fid, note="seen")
                if not cited:
                    ledger.add_claim_evidence(c.id, source="a label", note="heard")
                ledger.adopt_claim(c.id, reason="judged")
                claim_ids.append(c.id)
                clock.advance(seconds=1)
            made: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
            for who, cpicks, mpicks, scope in narratives:
                writer = mem.as_subject(who)
                cs, ms = [claim_ids[i] for i in cpicks], [ids[i] for i in mpicks]
                allowed = all(_sees_claim(writer, c) for c in cs) and all(
                    _readable(writer, m) for m in ms
                )
                try:
                    n = writer.chronicle.narrate(
                        f"by {who}", reason="r", claim_ids=cs, memory_ids=ms, scope=scope
                    )
                except NotFound:
                    assert not allowed  # a hidden claim is refused as one never used
                    continue
                assert allowed, f"{who} narrated on what it may not see"
                made[n.narrative_id] = (tuple(cs), tuple(ms))
                clock.advance(seconds=1)
            conflicts: dict[str, tuple[str, str]] = {}
            for i in range(0, len(ids) - 1, 2):  # declared by one who may read both
                pair = (ids[i], ids[i + 1])
                who = next(
                    (w for w in SUBJECTS if all(_readable(mem.as_subject(w), m) for m in pair)),
                    None,
                )
                if who is not None:
                    c = mem.as_subject(who).chronicle.mark_conflict(*pair, reason="they differ")
                    conflicts[c.id] = pair
            for who in SUBJECTS:
                for kind in ("person", "assistant"):
                    reader = mem.as_subject(who, kind)
                    seen_conflicts = {
                        k
                        for k, pair in conflicts.items()
                        if all(_readable(reader, m) for m in pair)
                    }
                    seen_claims = {c for c in claim_ids if _sees_claim(reader, c)}
                    wanted = {
                        nid
                        for nid, (cs, ms) in made.items()
                        if set(cs) <= seen_claims and all(_readable(reader, m) for m in ms)
                    }
                    history = reader.chronicle.narrative_history(limit=1000)
                    assert {n.narrative_id for n in history} == wanted, (who, kind)
                    for scope in ("a", "b"):
                        view = reader.chronicle.current_narrative(scope=scope)
                        shown = view.narrative or view.narrative_review
                        if shown is not None:
                            assert shown.narrative_id in wanted
                    audit = reader.chronicle.audit_log(limit=1000)
                    assert {e.claim_id for e in audit if e.claim_id} == seen_claims, (who, kind)
                    assert {e.narrative_id for e in audit if e.narrative_id} == wanted
                    assert all(_readable(reader, e.memory_id) for e in audit if e.memory_id)
                    assert {e.conflict_id for e in audit if e.conflict_id} == seen_conflicts
