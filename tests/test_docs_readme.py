"""README's "From Python" section names every public name of the package, of ``Memory``
and of ``Memory.chronicle``, and no method that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

import embornal
from embornal import Memory
from embornal.service.history.chronicle import Chronicle

README = Path(__file__).resolve().parents[1] / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## From Python\n")
    return text[start : text.index("\n## ", start + 1)]


def _named(text: str) -> set[str]:
    return set(re.findall(r"`(\w+)`", text))


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_every_exported_name_is_in_the_python_section() -> None:
    assert sorted(set(embornal.__all__) - _named(_section())) == []


def test_every_public_method_of_memory_is_in_the_python_section() -> None:
    assert sorted(_public(Memory) - _named(_section())) == []


def test_every_public_method_of_the_chronicle_is_in_the_python_section() -> None:
    assert sorted(_public(Chronicle) - _named(_section())) == []


def test_the_method_lists_name_only_what_exists() -> None:
    """Each name in a bullet of the lists is a method or property of Memory or the
    chronicle (a word in the prose between them is not a list)."""
    bullets = "\n".join(line for line in _section().splitlines() if line.startswith(("* ", "  ")))
    listed = {name for name in _named(bullets) if name.islower() or "_" in name}
    known = _public(Memory) | _public(Chronicle) | {"position", "c_eff"}
    assert sorted(listed - known) == []
