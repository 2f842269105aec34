"""Path rules, quoted from seed 000: 'The memory folds each path to lowercase. A segment
starts with a letter or a digit, and it holds letters, digits, ., _ and -.'"""

from __future__ import annotations

import pytest

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
