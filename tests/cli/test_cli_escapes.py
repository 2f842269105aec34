"""Stored text never drives the terminal: the text renderers show control and format
characters escaped (``\\x1b``, ``\\u202e``); ``--json`` and ``--plain`` keep them exact.

Any subject can store a fact over REST, so a fact, a reason, a tag or a token name
may hold ESC sequences, BEL or a bidi override aimed at whoever reads it.
"""

from __future__ import annotations

import json
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embornal import Memory
from embornal.interfaces.cli.main import main
from embornal.interfaces.cli.render import cell, escape_controls

UNSAFE = ("Cc", "Cf", "Cs", "Zl", "Zp")
#: Every C0 and C1 control, DEL, and every format character (bidi, zero-width, tags).
CONTROLS = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in UNSAFE]
HOSTILE = "red \x1b[31mALERT\x1b[0m \x07 \u202egnp.exe \u2066x\u2069 \x9b2J \u200b \r over"


def unsafe_in(text: str, keep: str = "\n") -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in UNSAFE and ch not in keep]


def test_the_list_covers_c0_c1_and_the_bidi_characters() -> None:
    for ch in ["\x00", "\x1b", "\x7f", "\x85", "\x9b", "\u200e", "\u202e", "\u2066", "\ufeff"]:
        assert ch in CONTROLS
    assert len(CONTROLS) > 65 + 150


def test_every_control_and_format_character_is_escaped_visibly() -> None:
    for ch in CONTROLS:
        out = escape_controls(f"a{ch}b", keep="")
        code = ord(ch)
        width = 2 if code < 0x100 else 4 if code < 0x10000 else 8
        letter = {2: "x", 4: "u", 8: "U"}[width]
        assert out == f"a\\{letter}{code:0{width}x}b", (hex(code), out)
        assert out.isascii() and out.isprintable()
        assert escape_controls(out, keep="") == out  # idempotent
        assert unsafe_in(cell(f"a{ch}b"), keep="") == []


def test_line_breaks_and_tabs_are_kept_by_default() -> None:
    assert escape_controls("one\n\ttwo\r\n") == "one\n\ttwo\\x0d\n"


@given(st.text())
def test_escaped_text_holds_nothing_a_terminal_acts_on(text: str) -> None:
    out = escape_controls(text)
    assert unsafe_in(out, keep="\n\t") == []
    assert escape_controls(out) == out
    if not unsafe_in(text, keep="\n\t"):
        assert out == text  # printable text, any script, passes untouched


@pytest.fixture
def hostile() -> str:
    """A fact, a reason and a tag with control sequences; return the fact id."""
    with Memory.open() as mem:
        fact = mem.store("/x", HOSTILE, tags=["note=\x1b[1mbold"], reason="why \x1b]0;title\x07")
        mem.token_add("alice", name="laptop\x1b[2J", rules=False)
        return fact.id


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "cat", "/x"],
        ["memory", "cat", "/x", "--meta"],
        ["memory", "recall", "red", "--meta", "--explain"],
        ["memory", "recall", "--no-reinforce"],
        ["memory", "show", "{id}"],
        ["memory", "history", "{id}"],
        ["memory", "history", "/x"],
        ["token", "ls"],
    ],
    ids=lambda a: " ".join(a),
)
def test_text_output_shows_controls_escaped(
    capsys: pytest.CaptureFixture[str], hostile: str, argv: list[str]
) -> None:
    code, out, err = _out(capsys, *[a.replace("{id}", hostile) for a in argv])
    assert code == 0, err
    assert unsafe_in(out) == [], out
    assert "\\x1b" in out


def test_show_keeps_the_lines_of_the_content(capsys: pytest.CaptureFixture[str]) -> None:
    with Memory.open() as mem:
        fact = mem.store("/x", "line one\n\tline \x1b[2Jtwo")
    code, out, _ = _out(capsys, "memory", "show", fact.id)
    assert code == 0
    assert "  line one\n  \tline \\x1b[2Jtwo\n" in out


def test_json_keeps_the_exact_text(capsys: pytest.CaptureFixture[str], hostile: str) -> None:
    code, out, _ = _out(capsys, "--json", "memory", "show", hostile)
    assert code == 0
    assert json.loads(out)["fact"]["content"] == HOSTILE


def test_plain_keeps_the_exact_text(capsys: pytest.CaptureFixture[str], hostile: str) -> None:
    code, out, _ = _out(capsys, "memory", "recall", "red", "--plain")
    assert code == 0
    # --plain puts a fact on one line: only the line breaks (here \r) become spaces.
    assert out == f"/x\t{HOSTILE.replace(chr(13), ' ')}\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "cat", "/x\x1b[31m"],
        ["memory", "show", "\u202e01"],
        ["memory", "store", "/x", "text", "--tag", "k\x1b=v"],
        ["memory", "recall", "--mode", "\x1b[2J"],
    ],
    ids=["path", "id", "tag", "usage"],
)
def test_errors_that_echo_input_escape_it(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, _, err = _out(capsys, *argv)
    assert code == 2, err
    assert unsafe_in(err) == [], err
    assert "\\x1b" in err or "\\u202e" in err
