"""The guide under /memory on both sides (local Memory, remote client) and both backends:
pinned and permanent, out of recall, search, ls, tree, retention, prune and due unless
asked for with ``all``; ``cat`` and ``show`` still read it (decision 0154)."""

from __future__ import annotations

from embornal import FixedClock, Memory
from embornal.interfaces.api import MemoryAPI
from embornal.storage.common.guide import GUIDE_FACTS, GUIDE_PATH


def test_the_guide_is_pinned_permanent_and_read_by_cat_and_show(alice: MemoryAPI) -> None:
    views = alice.cat(GUIDE_PATH)
    assert sorted(v.fact.content for v in views) == sorted(GUIDE_FACTS)
    assert all(v.fact.pinned and v.fact.lifetime == "permanent" for v in views)
    shown = alice.show(views[0].fact.id).fact
    assert shown.path == GUIDE_PATH and shown.pinned


def test_recall_and_search_leave_the_guide_out_unless_all(alice: MemoryAPI) -> None:
    alice.store("/alice/build", "The build uses make.")
    # "uv" is a word only a guide fact holds
    assert alice.recall("uv", mode="keyword", reinforce=False) == []
    hits = alice.recall("uv", mode="keyword", reinforce=False, all=True)
    assert hits and {h.fact.path for h in hits} == {GUIDE_PATH}
    assert alice.recall("uv", mode="keyword", reinforce=False, under=GUIDE_PATH)
    strongest = alice.recall(reinforce=False, limit=50)
    assert [h.fact.path for h in strongest] == ["/alice/build"]
    found = alice.chronicle.search("uv", mode="keyword")
    assert (found.hits, found.anchors) == ((), ())
    found = alice.chronicle.search("uv", mode="keyword", all=True)
    assert found.hits and {f.path for f in found.anchors} == {GUIDE_PATH}
    cascade = alice.chronicle.recall("build", mode="keyword", reinforce=False)
    assert cascade.anchors == () and [h.fact.path for h in cascade.hits] == ["/alice/build"]


def test_ls_and_tree_leave_the_guide_out_unless_all_or_asked_by_path(alice: MemoryAPI) -> None:
    alice.store("/alice/build", "The build uses make.")
    assert [e.path for e in alice.ls("/")] == ["/alice"]
    assert [e.path for e in alice.ls("/", all=True)] == ["/alice", GUIDE_PATH]
    assert [c.path for c in alice.tree("/").children] == ["/alice"]
    assert [c.path for c in alice.tree("/", all=True).children] == ["/alice", GUIDE_PATH]
    assert alice.tree(GUIDE_PATH).fact_count == len(GUIDE_FACTS)


def test_prune_retention_and_due_never_name_a_guide_fact(
    memory: Memory, alice: MemoryAPI, clock: FixedClock
) -> None:
    alice.store("/alice/build", "The build uses make.")
    clock.advance(days=400)
    for reader in (memory, alice):
        assert {s.path for s in reader.retention(lowest=100)} == {"/alice/build"}
        assert GUIDE_PATH not in {d.fact.path for d in reader.due(limit=100)}
    result = memory.prune(threshold=0.9, limit=3)
    assert result.proposal is not None
    assert {memory.show(i.fact_id).fact.path for i in result.proposal.items if i.fact_id} == {
        "/alice/build"
    }
