"""docs/model.md is a map that holds: every module it names exists, every module of the
four layers is named in its "Where things live" section, it cites no document outside the
repository, and its glossary defines the words the code uses. Nor do the source, the docs
(but the decision records, which are never rewritten), the README or the benchmarks: they
cite docs/model.md or a decision record."""

from __future__ import annotations

import re
from pathlib import Path

import embornal

SRC = Path(embornal.__file__).resolve().parent
DOC = Path(__file__).resolve().parents[1] / "docs" / "model.md"
LAYERS = ("domain", "service", "storage", "interfaces")
TOP = (*LAYERS, "adapters")


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _named(token: str, layer: str) -> list[Path]:
    """The files a path of the map names (``*`` allowed; a folder names what it holds)."""
    first = token.split("/", 1)[0]
    roots = {"tests": DOC.parents[1], "embornal": SRC.parent}
    base = roots.get(first, SRC if first in TOP else SRC / layer)
    found = sorted(base.glob(token.rstrip("/")))
    assert found, f"docs/model.md names {token!r} ({layer}), which does not exist"
    return [f for p in found for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]


def _paths(text: str) -> list[str]:
    tokens = re.findall(r"`([^`]+)`", text)
    return [t for t in tokens if re.fullmatch(r"[\w/*.]+", t) and t.endswith((".py", "/"))]


def _mapped() -> set[Path]:
    where = _section("Where things live")
    files: set[Path] = set()
    for line in where.splitlines():
        if line.startswith("| ") and not line.startswith(("| capability", "|---")):
            cells = line.strip().strip("|").split("|")[1:]
            for layer, cell in zip(LAYERS, cells, strict=True):
                for token in _paths(cell):
                    files.update(_named(token, layer))
        else:
            for token in _paths(line):
                files.update(_named(token, "interfaces"))
    return files


def test_every_module_the_map_names_exists_and_every_module_is_on_it() -> None:
    mapped = _mapped()
    missing = sorted(
        str(path.relative_to(SRC))
        for layer in LAYERS
        for path in (SRC / layer).rglob("*.py")
        if path.name != "__init__.py" and path not in mapped
    )
    assert missing == [], "add these to docs/model.md, Where things live"


def test_the_model_cites_no_document_outside_the_repository() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert not re.search(r"seed 00\d|DESIGN §", text)


#: A citation of a design note or an issue item, neither of which is in the repository.
OUTSIDE = re.compile(r"seed 00\d|DESIGN §|\bissue \d+,? item\b", re.IGNORECASE)


def _cited_outside() -> list[str]:
    root = DOC.parents[1]
    files = [
        *sorted(p for p in SRC.rglob("*") if p.suffix in {".py", ".sql", ".md"}),
        *sorted((root / "docs").glob("*.md")),
        root / "README.md",
        *sorted((root / "benchmarks").glob("*.py")),
        *sorted((root / "benchmarks").glob("*.md")),
    ]
    return [
        f"{path.relative_to(root) if path.is_relative_to(root) else path}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]


def test_the_source_docs_and_benchmarks_cite_no_document_outside_the_repository() -> None:
    assert _cited_outside() == [], "cite docs/model.md (a section) or a decision record instead"


def test_the_glossary_defines_the_words_of_the_code() -> None:
    glossary = _section("Glossary")
    defined = set(re.findall(r"^\* \*\*([^*]+)\*\*", glossary, re.M))
    for word in (
        "spine",
        "c_eff",
        "canon",
        "frame",
        "anchor",
        "tier",
        "chronicle",
        "cascade",
        "part",
        "area",
        "gate",
        "stale",
        "strength",
        "claim",
        "narrative",
        "proposal",
    ):
        assert word in defined, f"the glossary does not define {word!r}"
