"""The width a table gives a cell is the width the terminal shows it at."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from embornal.interfaces.cli.render import display_width, markdown_table


def columns(text: str) -> int:
    """The rule character by character: combining marks take none, wide characters two."""
    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


@given(st.text())
def test_display_width_follows_the_rule_for_any_text(text: str) -> None:
    assert display_width(text) == columns(text)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_takes_one_column_a_character(text: str) -> None:
    assert display_width(text) == len(text) == columns(text)


def test_wide_and_combining_characters_keep_the_columns_aligned() -> None:
    table = markdown_table(["name", "n"], [["東京", "1"], ["e\u0301te", "22"], ["plain", "3"]])
    assert [columns(line) for line in table.splitlines()] == [14] * 5
