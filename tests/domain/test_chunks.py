"""Long facts: cutting them into pieces a model reads whole, and pooling the vectors."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embornal.domain.recall.chunks import CHUNK_CHARS, chunk_text, mean_vector


def test_a_short_text_is_one_piece() -> None:
    assert chunk_text("hello\nworld") == ["hello\nworld"]
    assert chunk_text("x" * CHUNK_CHARS) == ["x" * CHUNK_CHARS]


def test_lines_are_packed_whole_while_they_fit() -> None:
    lines = [f"line {n:02d} " + "w" * 30 for n in range(10)]  # 38 characters each
    pieces = chunk_text("\n".join(lines), size=100)
    assert pieces == ["\n".join(lines[i : i + 2]) for i in range(0, 10, 2)]


def test_a_long_line_is_cut_at_a_space() -> None:
    words = " ".join(f"word{n}" for n in range(40))
    pieces = chunk_text(words, size=50)
    assert all(len(p) <= 50 for p in pieces)
    assert " ".join(pieces).split() == words.split()  # nothing lost, no word split


def test_a_line_without_spaces_is_cut_hard() -> None:
    assert chunk_text("a" * 25, size=10) == ["a" * 10, "a" * 10, "a" * 5]


def test_blank_pieces_are_dropped() -> None:
    assert all(p.strip() for p in chunk_text("x" * 12 + "\n\n\n\n" + "y" * 12, size=12))


def test_size_must_be_sane() -> None:
    with pytest.raises(ValueError):
        chunk_text("abc", size=1)


@given(st.text(alphabet=st.sampled_from("ab \n"), max_size=400), st.integers(2, 60))
def test_pieces_fit_and_keep_every_word(text: str, size: int) -> None:
    pieces = chunk_text(text, size)
    assert all(len(p) <= size for p in pieces) or pieces == [text]
    assert "".join("".join(pieces).split()) == "".join(text.split())


def test_mean_vector_is_the_normalized_mean_of_unit_vectors() -> None:
    pooled = mean_vector([[3.0, 0.0], [0.0, 0.5]])
    assert pooled == pytest.approx([1 / math.sqrt(2), 1 / math.sqrt(2)])
    assert mean_vector([[0.0, 2.0]]) == pytest.approx([0.0, 1.0])


def test_mean_vector_rejects_nothing_and_mixed_widths() -> None:
    with pytest.raises(ValueError):
        mean_vector([])
    with pytest.raises(ValueError):
        mean_vector([[1.0], [1.0, 2.0]])
    assert mean_vector([[1.0, 0.0], [-1.0, 0.0]]) == [0.0, 0.0]
