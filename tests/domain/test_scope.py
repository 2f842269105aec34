"""The read scope: a canonical value of a subject's read rules, agreeing with ``decide``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embornal.domain.access.rules import DEFAULT_RULES, Rule, decide
from embornal.domain.access.scope import EVERYTHING, NOTHING, ReadScope, read_scope, scope_for


def _p(sub: str, obj: str, eft: str = "allow", act: str = "read") -> Rule:
    return Rule("p", (sub, obj, act, eft))


def test_equal_rights_give_equal_scopes() -> None:
    a = scope_for("alice", [_p("alice", "path:/a/*"), _p("alice", "tag:k=v")])
    b = scope_for("bob", [_p("bob", "tag:k=v"), _p("bob", "path:/a/*"), _p("bob", "path:/a/*")])
    assert a == b and hash(a) == hash(b)
    assert not a.everything and len(a.rules) == 2


def test_everything_and_nothing_are_normalized() -> None:
    assert scope_for("default", list(DEFAULT_RULES)) is EVERYTHING
    public = read_scope([_p("x", "tag:visibility=public")])
    assert scope_for("everyone", list(DEFAULT_RULES)) == public
    assert scope_for("nobody", list(DEFAULT_RULES)) is NOTHING
    assert read_scope([]) is NOTHING
    assert read_scope([_p("s", "path:/*"), _p("s", "path:/*", "deny")]) is NOTHING
    assert read_scope([_p("s", "path:/a/*", "deny")]).nothing
    only_root = read_scope([_p("s", "path:/*"), _p("s", "path:/x"), _p("s", "tag:a=b", "deny")])
    assert [p.path for p in only_root.allows] == ["/"]  # the other allows add nothing


def test_write_rules_do_not_widen_the_read_scope() -> None:
    rules = [_p("s", "path:/*", act="write"), _p("s", "path:/r/*")]
    assert scope_for("s", rules) == read_scope([_p("s", "path:/r/*")])


def test_a_scope_of_everything_has_no_rules() -> None:
    with pytest.raises(ValueError, match="no rules"):
        ReadScope(read_scope([_p("s", "path:/a")]).rules, everything=True)


OBJECTS = st.sampled_from(
    ["path:/*", "path:/a/*", "path:/a", "path:/a/b", "path:/b/*", "tag:k=v", "tag:k=w"]
)
RULES = st.lists(
    st.builds(_p, st.just("s"), OBJECTS, st.sampled_from(["allow", "deny"])), max_size=5
)
FACTS = st.tuples(
    st.sampled_from(["/a", "/a/b", "/a/b/c", "/b", "/c"]),
    st.dictionaries(st.just("k"), st.sampled_from(["v", "w"]), max_size=1),
)


@given(RULES, FACTS)
def test_admits_agrees_with_decide(rules: list[Rule], fact: tuple[str, dict[str, str]]) -> None:
    path, tags = fact
    assert (
        scope_for("s", rules).admits(path, tags) == decide("s", "read", path, tags, rules).allowed
    )
