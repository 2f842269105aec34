"""The service API end to end on a real SQLite file, with a clock the tests move."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from embornal import FixedClock, Memory, NewFact, Tag
from embornal.errors import Conflict, InvalidInput, NotFound, OwnerTagForbidden


def count_events(mem: Memory) -> int:
    return int(mem._store.conn.execute("SELECT count(*) FROM events").fetchone()[0])


def test_store_writes_the_owner_column_and_tag(memory: Memory) -> None:
    fact = memory.store("/Projects/Embornal", "The memory lives in SQLite.", tags=["k=v"])
    assert fact.path == "/projects/embornal"
    assert fact.owner == "default"
    assert Tag("owner", "default") in fact.tags
    assert Tag("k", "v") in fact.tags


def test_a_store_carrying_an_owner_tag_stops_and_writes_nothing(memory: Memory) -> None:
    before = count_events(memory)
    with pytest.raises(OwnerTagForbidden):
        memory.store("/x", "text", tags=["owner=mallory"])
    with pytest.raises(OwnerTagForbidden):
        memory.store_many([NewFact("/x", "ok"), NewFact("/y", "bad", tags={"owner": "m"})])
    assert count_events(memory) == before
    with pytest.raises(NotFound):
        memory.cat("/x")


def test_at_sets_created_at_but_the_event_keeps_the_real_time(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.store("/imports", "old news", at="2020-05-01T10:00:00Z")
    assert fact.created_at == datetime(2020, 5, 1, 10, tzinfo=UTC)
    (event,) = memory.show(fact.id).events
    assert event.recorded_at == clock.now()


def test_recall_orders_by_keyword_plus_half_strength(memory: Memory, clock: FixedClock) -> None:
    old = memory.store("/a", "sqlite stores the facts")
    clock.advance(days=10)
    new = memory.store("/b", "sqlite stores the facts")
    hits = memory.recall("sqlite", reinforce=False)
    assert [h.fact.id for h in hits[:2]] == [new.id, old.id]
    top = hits[0]
    assert top.parts.keyword == 1.0
    assert top.score == pytest.approx(top.parts.keyword + 0.5 * top.strength)
    assert top.parts.matched_terms == ("sqlite",)


def test_recall_reinforces_unless_read_only(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/a", "zebra crossing")
    clock.advance(days=3)
    memory.recall("zebra", reinforce=False)
    assert memory.show(fact.id).fact.recall_count == 0
    memory.recall("zebra")
    shown = memory.show(fact.id).fact
    assert shown.recall_count == 1
    assert shown.stability_days > 1.0
    assert shown.last_recall_at == clock.now()


def test_no_query_returns_the_strongest(memory: Memory, clock: FixedClock) -> None:
    weak = memory.store("/a", "first")
    clock.advance(days=5)
    strong = memory.store("/a", "second")
    hits = memory.recall(None, under="/a", reinforce=False)
    assert [h.fact.id for h in hits] == [strong.id, weak.id]


def test_under_limits_recall_to_a_subtree(memory: Memory) -> None:
    memory.store("/work/acme", "deploy on friday")
    memory.store("/home", "deploy the garden")
    hits = memory.recall("deploy", under="/work", reinforce=False)
    assert {h.fact.path for h in hits} == {"/work/acme"}


def test_superseded_facts_leave_recall_but_stay_in_history(memory: Memory) -> None:
    old = memory.store("/db", "the database is postgres")
    new = memory.supersede(old.id, "the database is sqlite", reason="migrated")
    assert new.supersedes_id == old.id
    found = {h.fact.id for h in memory.recall("database", reinforce=False)}
    assert new.id in found and old.id not in found
    assert memory.show(old.id).fact.state == "superseded"
    assert [e.stream_id for e in memory.history(old.id)] == [old.id, new.id]
    with pytest.raises(Conflict):
        memory.supersede(old.id, "again")


def test_forget_and_restore(memory: Memory) -> None:
    fact = memory.store("/x", "temporary marmalade")
    with pytest.raises(InvalidInput):
        memory.forget(fact.id, reason="  ")
    memory.forget(fact.id, reason="no longer true")
    assert memory.recall("marmalade", reinforce=False) == []
    with pytest.raises(Conflict):
        memory.forget(fact.id, reason="twice")
    memory.restore(fact.id[:18], reason="it was true")
    assert [h.fact.id for h in memory.recall("marmalade", reinforce=False)] == [fact.id]
    types = [e.type for e in memory.history(fact.id)]
    assert types == ["FactStored", "FactForgotten", "FactRestored"]
    assert memory.history(fact.id)[1].reason == "no longer true"


def test_cjk_text_is_found_by_two_character_words(memory: Memory) -> None:
    fact = memory.store("/notes", "我们的记忆系统使用数据库")
    for word in ("记忆", "数据", "系统"):
        assert [h.fact.id for h in memory.recall(word, reinforce=False)] == [fact.id]


def test_accented_latin_matches_without_accents(memory: Memory) -> None:
    fact = memory.store("/notes", "Le café de la gare ferme à midi")
    assert [h.fact.id for h in memory.recall("cafe", reinforce=False)] == [fact.id]
    assert [h.fact.id for h in memory.recall("CAFÉ", reinforce=False)] == [fact.id]


def test_ls_tree_and_cat(memory: Memory, clock: FixedClock) -> None:
    memory.store("/work/acme", "one")
    memory.store("/work/acme/deploy", "two")
    memory.store("/work/notes", "three")
    entries = memory.ls("/work")
    assert [(e.path, e.fact_count, e.child_count) for e in entries] == [
        ("/work/acme", 1, 1),
        ("/work/notes", 1, 0),
    ]
    tree = memory.tree("/work")
    assert [c.name for c in tree.children] == ["acme", "notes"]
    assert [c.name for c in memory.tree("/work", dirs_only=True).children] == ["acme"]
    first = memory.cat("/work/acme")[0].fact
    clock.advance(days=1)
    memory.store("/work/acme", "four")
    assert [v.fact.content for v in memory.cat("/work/acme")] == ["one", "four"]
    assert [v.fact.content for v in memory.cat("/work/acme", order_by="signal")] == [
        "four",
        "one",
    ]
    assert memory.show(first.id).fact.recall_count == 0
    memory.cat("/work/acme", recall=True)
    assert memory.show(first.id).fact.recall_count == 1
    with pytest.raises(NotFound):
        memory.ls("/nowhere")


def test_a_fact_on_the_root_is_refused(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="root"):
        memory.store("/", "nope")


def test_nearest_path_tag_wins_and_the_facts_own_tag_beats_all(memory: Memory) -> None:
    memory.tag_path("/org", {"visibility": "shared", "team": "core", "owner": "x"})
    memory.tag_path("/org/secret", {"visibility": "private"})
    plain = memory.store("/org/secret/plans", "launch date")
    own = memory.store("/org/secret/plans", "menu", tags={"visibility": "public"})
    tags = {t.key: (t.value, src) for t, src in memory.show(plain.id).effective_tags}
    assert tags["visibility"] == ("private", "/org/secret")
    assert tags["team"] == ("core", "/org")
    assert tags["owner"] == ("default", None)  # a path's owner tag never reaches a fact
    own_tags = {t.key: (t.value, src) for t, src in memory.show(own.id).effective_tags}
    assert own_tags["visibility"] == ("public", None)


def test_links_are_read_when_a_fact_is_shown(memory: Memory) -> None:
    fact = memory.store("/a", "see [[/People/Alice]] and [[/db]] and [[bad link]]")
    assert memory.show(fact.id).links == ("/people/alice", "/db")
    assert "[[/People/Alice]]" in memory.show(fact.id).fact.content


def test_the_first_migration_writes_the_memory_guide(memory: Memory) -> None:
    guide = memory.cat("/memory")
    assert len(guide) >= 5
    for view in guide:
        assert view.fact.owner == "default"
        assert Tag("visibility", "public") in view.fact.tags


def test_ambiguous_and_unknown_prefixes(memory: Memory) -> None:
    with pytest.raises(NotFound):
        memory.show("0000000000")
    with pytest.raises(InvalidInput):
        memory.show("not-an-id!")


def test_store_returns_the_fact_as_stored(memory: Memory) -> None:
    fact = memory.store("/A/b", "same as the projection", tags={"k": "v"}, at="2024-01-01")
    assert memory.show(fact.id).fact == fact
