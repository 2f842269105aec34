"""docs/security.md holds the rights table as the declaration makes it (decision 0128)."""

from __future__ import annotations

from pathlib import Path

from embornal.domain.access.rights import RIGHTS, markdown_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "security.md"


def test_the_security_page_shows_the_declared_rights_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- rights-table: begin -->\n", "<!-- rights-table: end -->"
    shown = text[text.index(begin) + len(begin) : text.index(end)]
    assert shown == markdown_table(), (
        "regenerate with markdown_table() of embornal.domain.access.rights"
    )
    for name in RIGHTS:
        assert f"| `{name}` |" in shown
