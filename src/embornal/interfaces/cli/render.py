"""Rendering for the command line: JSON shapes, tables, trees and time stamps.

Everything here is pure: it turns service results into text and never touches
the memory. Commands pick a renderer; ``to_jsonable`` serves every ``--json``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime

from embornal.domain.clock import format_time
from embornal.hints import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from embornal.service.results import TreeNode

__all__ = [
    "EXCERPT_CHARS",
    "cell",
    "display_width",
    "escape_controls",
    "fact_cell",
    "fmt_float",
    "fmt_time",
    "iso_time",
    "markdown_table",
    "one_line",
    "render_tree",
    "to_jsonable",
]

# --------------------------------------------------------------------------- JSON


def iso_time(moment: datetime) -> str:
    """``2026-11-30T14:00:00.000000Z``: UTC, fixed width, as the event log writes it."""
    return format_time(moment)


def to_jsonable(obj: object) -> Any:
    """A service result as plain JSON values: its wire shape (:mod:`embornal.interfaces.wire`),
    the one the REST API sends."""
    from embornal.interfaces.wire import to_wire

    return to_wire(obj)


# --------------------------------------------------------------------------- text

#: Categories a terminal may act on rather than show: controls (C0, DEL, C1), format
#: characters (bidi overrides and isolates, zero-width ones), lone surrogates, and the
#: line and paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_controls(text: str, keep: str = "\n\t") -> str:
    """``text`` safe for a terminal: every control or format character but those in
    ``keep`` written as a visible escape (``\\x1b``, ``\\u202e``, ``\\U000e0001``).

    Every text renderer of the CLI goes through it (``--json`` and ``--plain`` do not:
    they keep the exact text). It is idempotent: its output holds nothing to escape.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        _escape_char(ch)
        if ch not in keep and unicodedata.category(ch) in _UNSAFE_CATEGORIES
        else ch
        for ch in text
    )


def fmt_time(moment: datetime | None) -> str:
    """``2026-11-30T14:00:00Z`` (seconds), or ``-`` for no time."""
    if moment is None:
        return "-"
    return format_time(moment, micro=False)


def fmt_float(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def one_line(text: str) -> str:
    """``text`` on one line: tabs and line breaks become single spaces."""
    return " ".join(text.replace("\t", " ").splitlines()) if text else text


def cell(text: str) -> str:
    """A table cell: one line, control characters escaped, with ``|`` escaped so the
    row keeps its columns."""
    return one_line(escape_controls(text, keep="\n\r\t")).replace("|", "\\|")


# A fact longer than this is shown in tables by its opening (whole: `show`, --json, --plain).
EXCERPT_CHARS = 300


def fact_cell(content: str, fact_id: str) -> str:
    """A fact's table cell: a long fact (an import, a conversation) shows its opening and
    how much more there is, so one fact does not fill the terminal."""
    text = one_line(content)
    if len(text) <= EXCERPT_CHARS:
        return cell(text)
    cut = text.rfind(" ", 0, EXCERPT_CHARS)
    head = text[: cut if cut > EXCERPT_CHARS // 2 else EXCERPT_CHARS].rstrip()
    more = len(text) - len(head)
    return cell(f"{head} … (+{more:,} characters: embornal memory show {fact_id})")


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal (wide East Asian characters count 2)."""
    if text.isascii():  # no ASCII character is wide or combining: one column each
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, right: bool) -> str:
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, right: Sequence[int] = ()
) -> str:
    """A Markdown table whose columns are as wide as their widest cell.

    ``right`` lists the column indexes to align right (numbers).
    """
    cols = len(headers)
    widths = [display_width(h) for h in headers]
    for row in rows:
        for i in range(cols):
            widths[i] = max(widths[i], display_width(row[i]))
    lines = ["| " + " | ".join(_pad(h, widths[i], False) for i, h in enumerate(headers)) + " |"]
    rule = [("-" * (w + 1) + ":") if i in right else "-" * (w + 2) for i, w in enumerate(widths)]
    lines.append("|" + "|".join(rule) + "|")
    for row in rows:
        padded = (_pad(row[i], widths[i], i in right) for i in range(cols))
        lines.append("| " + " | ".join(padded) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- tree


def _label(name: str, node: TreeNode) -> str:
    return escape_controls(name, keep="") + ("*" if node.fact_count else "")


def render_tree(root: TreeNode) -> str:
    """A box-drawing tree: the whole path on top, names below, ``*`` where facts are."""
    lines = [_label(root.path, root)]

    def walk(node: TreeNode, prefix: str) -> None:
        last = len(node.children) - 1
        for i, child in enumerate(node.children):
            branch, carry = ("└── ", "    ") if i == last else ("├── ", "│   ")
            lines.append(prefix + branch + _label(child.name, child))
            walk(child, prefix + carry)

    walk(root, "")
    return "\n".join(lines)
