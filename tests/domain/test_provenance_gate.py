"""The corroboration gate, as memory-as-history states it: "a known origin needs one different
corroborating source; an unknown/blank origin needs two distinct corroborating sources.
Whitespace is trimmed for comparison, case is preserved, and repeated labels add no
independent support." Reposts with a declared common origin form one origin group."""

from __future__ import annotations

import pytest

from embornal.domain.history.provenance import Corroboration as C
from embornal.domain.history.provenance import clean_label, gate


def test_a_known_origin_needs_one_different_source() -> None:
    assert not gate("alice", []).satisfied
    assert not gate("alice", [C("alice")]).satisfied  # the origin again adds nothing
    assert not gate("alice", [C(" alice  ")]).satisfied  # trimmed, it is the origin
    met = gate("alice", [C("alice"), C("bob")])
    assert met.satisfied and met.independent == ("bob",) and met.needed == 1


@pytest.mark.parametrize("origin", [None, "", "   "])
def test_an_unknown_origin_needs_two_distinct_sources(origin: str | None) -> None:
    assert gate(origin, []).needed == 2
    assert not gate(origin, [C("bob")]).satisfied
    assert not gate(origin, [C("bob"), C("bob"), C(" bob ")]).satisfied  # repeats add nothing
    both = gate(origin, [C("bob"), C("carol")])
    assert both.satisfied and both.origin is None and both.independent == ("bob", "carol")


def test_case_is_kept_so_labels_differing_in_case_are_different() -> None:
    assert gate("Reuters", [C("reuters")]).satisfied
    assert not gate("Reuters", [C(" Reuters\t")]).satisfied


def test_reposts_of_one_declared_origin_are_one_group() -> None:
    reposts = [C("site-a", "wire story"), C("site-b", "wire story"), C("site-c", "wire story")]
    g = gate(None, reposts)
    assert g.sources == ("site-a", "site-b", "site-c")
    assert g.independent == ("wire story",) and not g.satisfied and g.missing == 1
    assert gate(None, [*reposts, C("eyewitness")]).satisfied
    # A repost of the memory's own origin supports nothing.
    assert not gate("wire story", reposts).satisfied


def test_blank_corroborations_are_ignored_and_the_explanation_says_what_is_missing() -> None:
    g = gate("alice", [C("  "), C("")])
    assert g.sources == () and g.missing == 1
    assert "1 more" in g.explain()
    assert gate("alice", [C("bob")]).explain().endswith(": met")
    assert clean_label("  x ") == "x" and clean_label(" ") is None and clean_label(None) is None
