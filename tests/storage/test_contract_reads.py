"""Fact and path reads through a read scope: a fact out of scope is absent, not hidden."""

from __future__ import annotations

import pytest
from contract_helpers import Events, scope, write

from embornal.domain.access.scope import EVERYTHING, NOTHING, ReadScope
from embornal.domain.facts.tags import Tag
from embornal.errors import AmbiguousId, NotFound
from embornal.storage.contract.store import PathRow, Store

PUBLIC = scope(("allow", "path:/public/*"))


def _not_found_message(store: Store, prefix: str, within: ReadScope = EVERYTHING) -> str:
    with pytest.raises(NotFound) as caught:
        store.resolve_id(prefix, within)
    return caught.value.message


def test_facts_by_id_in_the_order_asked(store: Store, events: Events) -> None:
    a, b = write(store, events.stored("/p", "alpha"), events.stored("/p", "beta"))
    fact = store.get_fact(a)
    assert fact is not None
    assert (fact.path, fact.content, fact.owner, fact.state) == ("/p", "alpha", "default", "active")
    assert Tag("owner", "default") in fact.tags
    assert [f.id for f in store.get_facts([b, "01KCNOSUCHFACT000000000000", a])] == [b, a]
    assert store.get_fact("01KCNOSUCHFACT000000000000") is None


def test_resolve_an_id_by_its_prefix(store: Store, events: Events) -> None:
    (fid,) = write(store, events.stored("/p", "alpha", fact_id="01KCZZ" + "0" * 20))
    write(store, events.stored("/p", "beta", fact_id="01KCYY" + "0" * 19 + "1"))
    write(store, events.stored("/p", "gamma", fact_id="01KCYY" + "0" * 19 + "2"))
    assert store.resolve_id("01KCZZ") == fid
    assert store.resolve_id(fid) == fid
    with pytest.raises(AmbiguousId):
        store.resolve_id("01KCYY")
    _not_found_message(store, "01KCXX")


def test_a_fact_out_of_scope_is_absent(store: Store, events: Events) -> None:
    shown, hidden = write(
        store, events.stored("/public/notes", "shown"), events.stored("/private/notes", "hidden")
    )
    assert store.get_fact(hidden, PUBLIC) is None
    assert [f.id for f in store.get_facts([hidden, shown], PUBLIC)] == [shown]
    assert store.facts_at("/private/notes", PUBLIC) == []
    assert store.subtree("/private", PUBLIC) == []
    assert [r.path for r in store.subtree("/", PUBLIC)] == ["/", "/public", "/public/notes"]
    # Hidden and absent give the same answer, word for word but the id.
    hidden_msg = _not_found_message(store, hidden, PUBLIC)
    absent = "01KC" + "9" * 22
    assert hidden_msg.replace(hidden, "ID") == _not_found_message(store, absent).replace(
        absent, "ID"
    )
    assert store.get_fact(hidden, EVERYTHING) is not None


def test_nothing_sees_nothing_and_everything_sees_all(store: Store, events: Events) -> None:
    (fid,) = write(store, events.stored("/any", "a fact"))
    assert store.get_fact(fid, NOTHING) is None
    assert store.facts_at("/any", NOTHING) == []
    assert store.strongest(10, "2026-01-02T00:00:00.000000Z", NOTHING) == []
    assert store.get_fact(fid, EVERYTHING) is not None


def test_a_tag_rule_sees_the_tagged_facts_and_a_deny_wins(store: Store, events: Events) -> None:
    pub, plain, secret = write(
        store,
        events.stored("/t", "tagged", tags=[("visibility", "public")]),
        events.stored("/t", "untagged"),
        events.stored("/t/inner", "tagged but denied", tags=[("visibility", "public")]),
    )
    tagged = scope(("allow", "tag:visibility=public"))
    assert [f.id for f in store.facts_at("/t", tagged)] == [pub]
    denied = scope(("allow", "tag:visibility=public"), ("deny", "path:/t/inner/*"))
    assert store.get_fact(secret, denied) is None
    assert store.get_fact(pub, denied) is not None
    assert store.get_fact(plain, denied) is None


def test_a_path_tag_reaches_its_taggers_facts(store: Store, events: Events) -> None:
    (mine,) = write(store, events.stored("/team/x", "mine"))
    (theirs,) = write(store, events.stored("/team/x", "theirs", owner="bob"))
    write(store, events.path_tagged("/team", [("project", "apollo")]))
    assert store.effective_tags(mine) == [
        (Tag("owner", "default"), None),
        (Tag("project", "apollo"), "/team"),
    ]
    assert store.inherited_path_tags(["/", "/team", "/team/x"], "default") == {"project": "apollo"}
    assert store.inherited_path_tags(["/", "/team", "/team/x"], "bob") == {}
    apollo = scope(("allow", "tag:project=apollo"))
    assert [f.id for f in store.facts_at("/team/x", apollo)] == [mine]
    assert store.get_fact(theirs, apollo) is None


def test_facts_at_oldest_first_and_inactive_on_request(store: Store, events: Events) -> None:
    late, early, gone = write(
        store,
        events.stored("/d", "late", minutes=30),
        events.stored("/d", "early", minutes=5),
        events.stored("/d", "gone", minutes=10),
    )
    write(store, events.forgotten(gone))
    assert [f.id for f in store.facts_at("/d")] == [early, late]
    assert [f.id for f in store.facts_at("/d", include_inactive=True)] == [early, gone, late]


def test_subtree_counts_what_the_scope_lets_through(store: Store, events: Events) -> None:
    write(
        store,
        events.stored("/public/a", "one"),
        events.stored("/public/a", "two"),
        events.stored("/public/a/deep", "three"),
        events.stored("/public/b", "four"),
    )
    rows = store.subtree("/public", PUBLIC)
    assert rows == [
        PathRow("/public", 0, 2),
        PathRow("/public/a", 2, 1),
        PathRow("/public/a/deep", 1, 0),
        PathRow("/public/b", 1, 0),
    ]
    assert store.subtree("/nowhere") == []


def test_strongest_respects_scope_and_under(store: Store, events: Events) -> None:
    pub, priv = write(
        store, events.stored("/public/s", "shown"), events.stored("/private/s", "not")
    )
    now = "2026-01-02T00:00:00.000000Z"
    assert [f.id for f in store.strongest(50, now, PUBLIC)] == [pub]
    assert [f.id for f in store.strongest(50, now, under="/private")] == [priv]
    assert len(store.strongest(1, now)) == 1


def test_neighbours_count_places_over_the_scope(store: Store, events: Events) -> None:
    first, _hidden, third = write(
        store,
        events.stored("/chat", "one", minutes=1, tags=[("visibility", "public")]),
        events.stored("/chat", "two", minutes=2),
        events.stored("/chat", "three", minutes=3, tags=[("visibility", "public")]),
    )
    public = scope(("allow", "tag:visibility=public"))
    assert store.neighbours([first], reach=1, scope=public)[first] == ((third,),)
    assert store.neighbours([first], reach=1)[first] == ((_hidden,),)


def test_a_successor_out_of_scope_is_not_named(store: Store, events: Events) -> None:
    (old,) = write(store, events.stored("/public/x", "old words"))
    write(store, events.stored("/public/x", "new words", supersedes=old, tags=[("k", "v")]))
    only_old = scope(("allow", "path:/public/*"), ("deny", "tag:k=v"))
    seen = store.get_fact(old, only_old)
    assert seen is not None
    assert seen.superseded_by is None and seen.successor_hidden
    full = store.get_fact(old)
    assert full is not None and full.superseded_by is not None and not full.successor_hidden
