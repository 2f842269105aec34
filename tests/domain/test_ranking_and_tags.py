from __future__ import annotations

import pytest

from embornal.domain.facts.tags import Tag, check_subject, parse_tag, parse_tags
from embornal.domain.recall.ranking import (
    DF_CEILING_MIN_DOCS,
    candidate_count,
    rescale_bm25,
    select_terms,
)
from embornal.errors import InvalidSubject, InvalidTag, OwnerTagForbidden


def test_bm25_rescales_best_to_one_and_worst_to_zero() -> None:
    assert rescale_bm25([-5.0, -3.0, -1.0]) == [1.0, 0.5, 0.0]
    assert rescale_bm25([-2.0, -2.0]) == [1.0, 1.0]
    assert rescale_bm25([]) == []


def test_candidates_exceed_the_limit() -> None:
    assert candidate_count(1) == 50
    assert candidate_count(20) == 80


def test_df_ceiling_drops_common_terms_in_large_memories() -> None:
    total = 100
    df = {"the": 90, "sqlite": 3, "ghost": 0}
    assert select_terms(["the", "sqlite", "ghost"], df, total) == ["sqlite"]
    assert select_terms(["the"], df, total) == ["the"]  # the rarest survives alone
    assert select_terms(["the"], df, DF_CEILING_MIN_DOCS - 1) == ["the"]


def test_tags_parse_and_the_owner_key_is_reserved() -> None:
    assert parse_tag("Visibility=public") == Tag("visibility", "public")
    assert parse_tags(["a=1", "a=2"]) == (Tag("a", "2"),)
    assert parse_tags({"k": "v"}) == (Tag("k", "v"),)
    with pytest.raises(OwnerTagForbidden):
        parse_tag("owner=alice")
    for bad in ("novalue=", "=x", "nokey", "a=b,c", "a= b"):
        with pytest.raises(InvalidTag):
            parse_tag(bad)


def test_subject_names_hold_no_space_equals_or_comma() -> None:
    assert check_subject("alice") == "alice"
    for bad in ("", "a b", "a=b", "a,b", "a\tb"):
        with pytest.raises(InvalidSubject):
            check_subject(bad)


def test_vector_cuts_floor_and_share() -> None:
    from embornal.domain.recall.ranking import cut_vector

    assert cut_vector([("a", 0.10), ("b", 0.05)], 0.15, 0.0) == []
    assert cut_vector([("a", 0.9), ("b", 0.5), ("c", 0.2)], 0.0, 0.5) == [("a", 0.9), ("b", 0.5)]
    assert cut_vector([("a", 0.9), ("b", 0.5)], 0.6, 0.5) == [("a", 0.9)]


def test_fusion_maths() -> None:
    from embornal.domain.recall.ranking import FusionSettings, fuse_linear, fuse_rrf

    settings = FusionSettings(method="rrf", vector_weight=1.0)
    rrf = fuse_rrf(["a", "b"], ["b", "c"], settings)
    k = settings.rrf_k
    top = 2 / (k + 1)
    assert rrf["b"] == pytest.approx((1 / (k + 2) + 1 / (k + 1)) / top)
    assert rrf["a"] == pytest.approx((1 / (k + 1)) / top)
    assert max(rrf, key=rrf.__getitem__) == "b"
    assert fuse_rrf(["a"], ["a"], settings)["a"] == pytest.approx(1.0)
    cosine = FusionSettings(method="linear", vector_weight=1.0, vector_scale="cosine")
    lin = fuse_linear({"a": 1.0, "b": 0.5}, {"b": 0.8}, cosine)
    assert lin == {"a": 1.0, "b": pytest.approx(1.3)}


def test_minmax_fusion_rescales_the_cosines_over_the_candidates() -> None:
    from embornal.domain.recall.ranking import (
        FusionSettings,
        fuse_linear,
        rescale_similarity,
        vector_scores,
    )

    assert rescale_similarity([0.8, 0.5, 0.2]) == pytest.approx([1.0, 0.5, 0.0])
    assert rescale_similarity([0.3]) == [1.0]
    assert rescale_similarity([0.4, 0.4]) == [1.0, 1.0]
    assert rescale_similarity([]) == []
    settings = FusionSettings(vector_weight=1.25)
    assert settings.vector_scale == "minmax"  # the default the benchmarks picked
    vec = {"b": 0.8, "c": 0.5, "d": 0.2}
    assert vector_scores(vec, settings) == pytest.approx({"b": 1.0, "c": 0.5, "d": 0.0})
    lin = fuse_linear({"a": 1.0, "b": 0.5}, vec, settings)
    assert lin == pytest.approx({"a": 1.0, "b": 0.5 + 1.25, "c": 1.25 * 0.5, "d": 0.0})
    # A cosine keeps its place in the order; only the spread between lists changes.
    assert sorted(vec, key=vec.__getitem__) == sorted(vec, key=lin.__getitem__)


def test_hybrid_takes_each_bm25_as_a_share_of_the_best() -> None:
    from embornal.domain.recall.ranking import FusionSettings, bm25_share, keyword_scores

    assert bm25_share([-4.0, -2.0, -1.0]) == pytest.approx([1.0, 0.5, 0.25])
    assert bm25_share([-3.0]) == [1.0]
    assert bm25_share([]) == []
    assert bm25_share([0.0, 0.0]) == [1.0, 1.0]
    # The last match keeps what it matched (decision 0172); rescaled it would score 0.
    assert FusionSettings().keyword_scale == "share"
    assert keyword_scores([-4.0, -1.0], FusionSettings()) == pytest.approx([1.0, 0.25])
    minmax = FusionSettings(keyword_scale="minmax")
    assert keyword_scores([-4.0, -1.0], minmax) == pytest.approx([1.0, 0.0])


def test_a_tag_parsed_again_is_the_same_and_a_bad_one_fails_each_time() -> None:
    # parse_tag keeps the tags it parsed (a bulk load repeats a few): the owner rule and
    # the checks still apply to every call, whichever came first.
    assert parse_tag("Team=core") == parse_tag("team=core") == Tag("team", "core")
    assert parse_tag("owner=ana", allow_owner=True) == Tag("owner", "ana")
    for _ in range(2):
        with pytest.raises(OwnerTagForbidden):
            parse_tag("owner=ana")
        with pytest.raises(InvalidTag):
            parse_tag("team=a,b")
