"""Property: the recall cascade, search and search_archive show a subject exactly the
memories it may read, in every section (decisions 0095-0097). Random memories stored by
random subjects with random visibility, some pinned, some canonized, one narrative over
two of them and a declared conflict, read by each subject as a person and as an
assistant."""

from __future__ import annotations

import contextlib
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.errors import AccessDenied, EmbornalError, NotFound
from embornal.service.history.cascade_results import Cascade

SUBJECTS = ["default", "alice", "bob"]
VISIBILITY = ["shared", "private", "restricted:alice", "restricted:bob"]

memory_st = st.tuples(
    st.sampled_from(SUBJECTS), st.sampled_from(VISIBILITY), st.booleans(), st.booleans()
)


def _readable(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


def _shown(c: Cascade) -> set[str]:
    ids = {f.id for f in c.anchors} | {e.fact.id for e in c.canon}
    ids |= {h.fact.id for h in (*c.memories, *c.hits)}
    ids |= {d.fact.id for d in c.stale_interpretations}
    ids |= {m.id for k in c.conflicts for m in k.members}
    if c.narrative is not None:
        ids |= set(c.narrative.memory_ids)
    return ids


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(memories=st.lists(memory_st, min_size=2, max_size=7))
def test_no_section_shows_a_memory_the_subject_may_not_read(
    memories: list[tuple[str, str, bool, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC))
        with Memory.open(Path(tmp) / "m.db", clock=clock) as mem:
            for who in ("alice", "bob"):
                for action in ("read", "write"):
                    mem.policy_add("p", [who, "path:/*", action])
            ids: list[str] = []
            for i, (who, vis, pinned, canon) in enumerate(memories):
                writer = mem.as_subject(who)
                fid = writer.store(f"/m/{i}", f"The deploy note {i}.", visibility=vis).id
                ids.append(fid)
                if pinned:
                    writer.pin(fid, reason="anchor")
                if canon:
                    writer.chronicle.canonize(fid, "task", reason="focus")
                clock.advance(seconds=1)
            writer = mem.as_subject(memories[0][0])
            with contextlib.suppress(NotFound, AccessDenied, EmbornalError):
                writer.chronicle.mark_conflict(ids[0], ids[1], reason="they disagree")
            with contextlib.suppress(NotFound, AccessDenied, EmbornalError):
                writer.chronicle.narrate("An account.", reason="r", memory_ids=ids[:2])
            for who in SUBJECTS:
                for kind in ("person", "assistant"):
                    reader = mem.as_subject(who, kind)
                    readable = {f for f in ids if _readable(reader, f)}
                    chron = reader.chronicle
                    for answer in (
                        chron.recall(limit=20, reinforce=False),
                        chron.recall("deploy", limit=20, reinforce=False),
                        chron.search("deploy", limit=20),
                    ):
                        assert _shown(answer) & set(ids) <= readable, (who, kind)
                        pinned = {f for f, m in zip(ids, memories, strict=True) if m[2]}
                        assert {f.id for f in answer.anchors} == pinned & readable
                    archive = {h.fact.id for h in chron.search_archive("deploy", limit=20)} & set(
                        ids
                    )
                    assert archive <= readable - {f.id for f in answer.anchors}
