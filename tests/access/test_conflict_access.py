"""Property: a subject sees exactly the conflicts all of whose facts it may read, and a
conflict it may not see answers as an id never used (decision 0059). Random people with
near-identical names, stored by random subjects with random visibility, read as a person
and as an assistant."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import AccessDenied, NotFound

SUBJECTS = ["default", "alice", "bob"]
NAMES = ["Ada Lovelace", "A. Lovelace", "ada lovelace", "Alan Turing", "Turing Alan"]
VISIBILITY = ["shared", "private", "restricted:alice", "restricted:bob"]

person_st = st.tuples(
    st.sampled_from(NAMES), st.sampled_from(SUBJECTS), st.sampled_from(VISIBILITY)
)


def _readable(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(people=st.lists(person_st, min_size=2, max_size=7), contradicted=st.booleans())
def test_conflicts_show_only_what_every_member_lets_the_reader_see(
    people: list[tuple[str, str, str]], contradicted: bool
) -> None:
    from datetime import UTC, datetime

    with tempfile.TemporaryDirectory() as tmp:
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
        with Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
            for who in ("alice", "bob"):  # each may read and write everything shared
                for action in ("read", "write"):
                    mem.policy_add("p", [who, "path:/*", action])
            ids = []
            for i, (name, who, vis) in enumerate(people):
                writer = mem.as_subject(who)
                attrs = {"full_name": name}
                ids.append(
                    writer.store(
                        f"/p/{i}", name, kind="person", attributes=attrs, visibility=vis
                    ).id
                )
                clock.advance(seconds=1)
            if contradicted:  # by the first one's writer, when it may read both
                with contextlib.suppress(NotFound, AccessDenied):
                    mem.as_subject(people[0][1]).contradict(ids[0], by=ids[1], reason="no")
            mem.scan_conflicts(stale=False)
            every = mem._store.conflicts.conflict_states(status=None)
            absent = "K" + "0" * 15
            for who in SUBJECTS:
                for kind in ("person", "assistant"):
                    reader = mem.as_subject(who, kind)
                    seen = {c.id for c in reader.conflicts(status="all", limit=1000)}
                    wanted = {
                        s.conflict_id for s in every if all(_readable(reader, m) for m in s.members)
                    }
                    assert seen == wanted, (who, kind)
                    with_scan = {c.id for c in reader.scan_conflicts(stale=False)}
                    assert with_scan == set()  # nothing new, and nothing hidden told
                    for s in every:
                        if s.conflict_id in wanted:
                            assert reader.conflict(s.conflict_id).id == s.conflict_id
                            continue
                        try:
                            reader.conflict(s.conflict_id)
                        except NotFound as hidden:
                            try:
                                reader.conflict(absent)
                            except NotFound as missing:
                                text = str(hidden).replace(s.conflict_id, absent)
                                assert text == str(missing)
                        else:
                            raise AssertionError(f"{who} sees a conflict it may not")
