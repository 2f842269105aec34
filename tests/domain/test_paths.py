"""Path rules (docs/model.md, Fact and path), quoted: 'The memory folds each path to lowercase.
A segment starts with a letter or a digit, and it holds letters, digits, ., _ and -.'"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embornal.domain import paths as P
from embornal.errors import InvalidPath


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("/", "/"),
        ("/Projects", "/projects"),
        ("/Projects/Embornal/", "/projects/embornal"),
        ("/a.b/c_d/e-f/9x", "/a.b/c_d/e-f/9x"),
        ("/Ünïcode/日本", "/ünïcode/日本"),
    ],
)
def test_paths_fold_to_lowercase(raw: str, want: str) -> None:
    assert P.normalize_path(raw) == want


@pytest.mark.parametrize(
    ("raw", "bad"),
    [
        ("/a/.hidden", ".hidden"),
        ("/a/-dash", "-dash"),
        ("/a/_under", "_under"),
        ("/a/b c", "b c"),
        ("/a/../b", ".."),
        ("/a/b$", "b$"),
    ],
)
def test_a_bad_segment_is_named_in_the_error(raw: str, bad: str) -> None:
    with pytest.raises(InvalidPath) as info:
        P.normalize_path(raw)
    assert repr(bad) in info.value.message


@pytest.mark.parametrize("raw", ["", "projects", "//", "/a//b", "/a//"])
def test_malformed_paths_are_refused(raw: str) -> None:
    with pytest.raises(InvalidPath):
        P.normalize_path(raw)


def test_a_path_of_ten_thousand_segments_is_refused_clearly() -> None:
    with pytest.raises(InvalidPath) as info:
        P.normalize_path("/a" * 10_000)
    assert "characters" in info.value.message or "segments" in info.value.message


def test_depth_limit() -> None:
    ok = "/a" * P.MAX_DEPTH
    assert P.normalize_path(ok) == ok
    with pytest.raises(InvalidPath, match="segments"):
        P.normalize_path("/a" * (P.MAX_DEPTH + 1))


def test_tree_helpers() -> None:
    assert P.parent_of("/") is None
    assert P.parent_of("/a") == "/"
    assert P.parent_of("/a/b") == "/a"
    assert P.ancestors("/a/b") == ["/", "/a", "/a/b"]
    assert P.name_of("/a/b") == "b"
    assert P.is_under("/a/b", "/a")
    assert P.is_under("/a", "/a")
    assert not P.is_under("/ab", "/a")
    assert P.is_under("/x", "/")
    assert P.join("/", "a") == "/a"
    assert P.join("/a", "b") == "/a/b"


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("/ａdmin", "/admin"),  # fullwidth
        ("/ＡＤＭＩＮ/Ｘ", "/admin/x"),
        ("/ﬁle", "/file"),  # ligature
        ("/x²", "/x2"),  # superscript
        ("/e\u0301t\u00e9", "/\u00e9t\u00e9"),  # decomposed and composed: one node
        ("/ｅ\u0301", "/\u00e9"),
        ("/Ⅻ", "/xii"),  # roman numeral
        ("/привет", "/привет"),  # one script (Cyrillic) is fine
        ("/αβγ-1", "/αβγ-1"),
        ("/abc日本", "/abc日本"),  # only Latin, Cyrillic and Greek must not mix
    ],
)
def test_lookalikes_fold_with_nfkc_to_one_node(raw: str, want: str) -> None:
    assert P.normalize_path(raw) == want


@pytest.mark.parametrize(
    ("raw", "typed"),
    [
        ("/\u0430dmin", "\u0430"),  # Cyrillic а among Latin letters
        ("/p\u0430ypal/x", "\u0430"),
        ("/adm\u03b9n", "\u03b9"),  # Greek iota
        ("/\u0440\u0443\u0441\u0441\u043a\u0438\u0439x", "x"),  # Latin x among Cyrillic
        ("/\u00b5s", "\u00b5"),  # the micro sign folds to Greek mu: named as typed
    ],
)
def test_a_segment_that_mixes_scripts_is_refused_naming_the_letter(raw: str, typed: str) -> None:
    with pytest.raises(InvalidPath) as info:
        P.normalize_path(raw)
    message = info.value.message
    assert "mixes scripts" in message
    assert f"U+{ord(typed):04X} {unicodedata.name(typed)}" in message
    assert repr(typed) in message


@pytest.mark.parametrize(
    ("raw", "typed"),
    [
        ("/İstanbul", "İ"),  # folds to i + U+0307: the error shows İ, not the mark
        ("/a b", " "),
        ("/a\u200bb", "\u200b"),
        ("/a\u202eb", "\u202e"),
        ("/x\ufe56", "\ufe56"),  # small question mark folds to '?'
    ],
)
def test_an_invalid_character_is_named_as_typed_with_its_code_point(raw: str, typed: str) -> None:
    with pytest.raises(InvalidPath) as info:
        P.normalize_path(raw)
    assert f"{typed!r} (U+{ord(typed):04X} {unicodedata.name(typed)})" in info.value.message


def test_a_fullwidth_solidus_is_a_separator() -> None:
    assert P.normalize_path("/a\uff0fb") == "/a/b"


def test_a_path_that_nfkc_makes_too_long_is_refused() -> None:
    with pytest.raises(InvalidPath, match="folds to"):
        P.normalize_path("/" + "\ufdfa" * 100)


@given(st.text(max_size=40).map(lambda t: "/" + t))
def test_normalizing_is_idempotent(raw: str) -> None:
    try:
        once = P.normalize_path(raw)
    except InvalidPath:
        return
    assert P.normalize_path(once) == once
    assert unicodedata.normalize("NFKC", once) == once
