"""``[[/path]]`` links inside fact content, read when a fact is shown."""

from __future__ import annotations

import re

from embornal.domain.paths import normalize_path
from embornal.errors import InvalidPath

__all__ = ["extract_links"]

_LINK = re.compile(r"\[\[(/[^\[\]\n]*)\]\]")


def extract_links(content: str) -> list[str]:
    """The normalized target paths of the well-formed links in ``content``, in order, deduped."""
    out: dict[str, None] = {}
    for raw in _LINK.findall(content):
        try:
            out.setdefault(normalize_path(raw.strip()), None)
        except InvalidPath:
            continue
    return list(out)
