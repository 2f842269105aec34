"""Every route of the wiki is in the table of docs/wiki.md."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.routing import Route

from embornal import Memory
from embornal.interfaces.http.wiki import wiki_routes

DOCS = Path(__file__).resolve().parents[2] / "docs" / "wiki.md"


def _documented() -> list[str]:
    """The routes named in the first column of the table of pages."""
    return re.findall(r"^\| `(?:POST )?(/[^`?]*)[^`]*` \|", DOCS.read_text("utf-8"), re.M)


def test_every_wiki_route_is_documented(memory: Memory) -> None:
    documented = _documented()
    for route in wiki_routes(lambda request: memory):
        assert isinstance(route, Route)
        # A parameter is <name> in the docs, or (a verb) each of its words.
        pattern = re.sub(r"\\\{[^}]+\\\}", "(<[a-z]+>|[a-z]+)", re.escape(route.path))
        matches = [d for d in documented if re.fullmatch(pattern, d)]
        assert matches, f"{route.path} is not in docs/wiki.md"
