"""A path tag reaches only its tagger's facts: tagging or untagging a path never changes
who may read another owner's facts (decision: path tags label the tagger's own facts)."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.errors import NotFound
from embornal.storage.sqlite import migrations
from embornal.storage.sqlite.connect import connect
from embornal.storage.sqlite.migrations import MIGRATIONS


@pytest.fixture
def bob(memory: Memory) -> Memory:
    memory.token_add("bob")
    return memory.as_subject("bob", "assistant")


def _readable(mem: Memory) -> set[str]:
    return {h.fact.content for h in mem.recall(None, limit=1000, reinforce=False)}


def test_path_tags_are_the_subjects_own_the_nearest_path_winning(
    memory: Memory, bob: Memory
) -> None:
    memory.tag_path("/notes", {"project": "alpha"})
    memory.tag_path("/notes/deep", {"project": "beta", "team": "x"})
    bob.tag_path("/notes", {"visibility": "public"})
    assert [str(t) for t in memory.path_tags("/notes/deep/er")] == ["project=beta", "team=x"]
    assert [str(t) for t in memory.path_tags("/notes")] == ["project=alpha"]
    assert memory.path_tags("/other") == []
    assert [str(t) for t in bob.path_tags("/notes/deep")] == ["visibility=public"]
    memory.untag_path("/notes/deep", ["project"])
    assert [str(t) for t in memory.path_tags("/notes/deep")] == ["project=alpha", "team=x"]


def test_tagging_a_path_does_not_relabel_others_facts(memory: Memory, bob: Memory) -> None:
    memory.store("/secret/plans", "The merger closes in May.")
    bob.tag_path("/secret", {"visibility": "public"})
    assert "The merger closes in May." not in _readable(bob)
    with pytest.raises(NotFound):
        bob.cat("/secret/plans")
    # Bob's own facts below the path do inherit his tag: carol may read them.
    bob.store("/secret/bob", "Bob's public note.")
    memory.token_add("carol")
    carol = memory.as_subject("carol")
    assert _readable(carol) >= {"Bob's public note."}
    assert "The merger closes in May." not in _readable(carol)
    shown = {str(t): src for t, src in bob.show(bob.cat("/secret/bob")[0].fact.id).effective_tags}
    assert shown["visibility=public"] == "/secret"


def test_untagging_a_path_does_not_unlabel_others_facts(memory: Memory, bob: Memory) -> None:
    memory.policy_add("p", ["bob", "tag:confidential=yes", "read", "deny"])
    memory.policy_add("p", ["bob", "path:/team/*", "read", "allow"])
    fact = memory.store("/team/board", "The board meets on Friday.")
    memory.tag_path("/team/board", {"confidential": "yes"})
    assert "The board meets on Friday." not in _readable(bob)
    bob.untag_path("/team/board", ["confidential"])  # bob's own tags only: none
    assert "The board meets on Friday." not in _readable(bob)
    tags = {str(t) for t, _ in memory.show(fact.id).effective_tags}
    assert "confidential=yes" in tags
    # Bob's tag with the same key lives beside the owner's, not over it.
    bob.tag_path("/team/board", {"confidential": "no"})
    assert "The board meets on Friday." not in _readable(bob)
    assert {str(t) for t, _ in memory.show(fact.id).effective_tags} == tags
    assert memory.verify() == []


def test_an_older_memory_keeps_its_path_tags(db_path: Path, clock: FixedClock) -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:9])
        with Memory.open(db_path, clock=clock) as old:
            fact = old.store("/work/acme", "Acme pays in 30 days.")
    # What 0009's code wrote for `tag /work client=acme visibility=team`, `untag visibility`.
    with closing(connect(db_path)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        for version, (etype, payload) in enumerate(
            [
                (
                    "PathTagged",
                    {"path": "/work", "tags": [["client", "acme"], ["visibility", "team"]]},
                ),
                ("PathUntagged", {"path": "/work", "keys": ["visibility"]}),
            ],
            start=1,
        ):
            conn.execute(
                "INSERT INTO events (stream_id, version, type, payload, actor, actor_kind, "
                "recorded_at) VALUES ('path:/work', ?, ?, ?, 'default', 'person', "
                "'2026-01-01T12:00:00Z')",
                (version, etype, json.dumps(payload)),
            )
        conn.execute(
            "INSERT INTO path_tags (path_id, key, value) "
            "SELECT id, 'client', 'acme' FROM paths WHERE path = '/work'"
        )
        conn.execute("COMMIT")
    with Memory.open(db_path, clock=clock) as mem:
        assert mem.migrations_applied == [m.name for m in MIGRATIONS[9:]]  # 0010 on
        assert [(str(t), src) for t, src in mem.show(fact.id).effective_tags] == [
            ("client=acme", "/work"),
            ("owner=default", None),
        ]
        assert mem.verify() == []
