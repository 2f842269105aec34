"""docs/security.md holds the rights table as the declarations make it (decisions 0128, 0179)."""

from __future__ import annotations

from pathlib import Path

from embornal.domain.access.rights import markdown_table
from embornal.interfaces.catalog import rights

DOC = Path(__file__).resolve().parents[1] / "docs" / "security.md"


def test_the_security_page_shows_the_declared_rights_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- rights-table: begin -->\n", "<!-- rights-table: end -->"
    shown = text[text.index(begin) + len(begin) : text.index(end)]
    assert shown == markdown_table(rights()), (
        "regenerate with markdown_table(rights()) of embornal.domain.access.rights and"
        " embornal.interfaces.catalog"
    )
    for name in rights():
        assert f"| `{name}` |" in shown
