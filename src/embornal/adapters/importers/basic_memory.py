"""A basic-memory project: a directory of Markdown files, each an entity — YAML front
matter (``title``, ``type``, ``permalink``, ``tags``), then its text, where a list item
``- [category] content #tag (context)`` is an observation and ``- relation_type
[[Target]] (context)`` a relation; any other ``[[Target]]`` is a ``links_to`` relation.
Hidden directories (``.basic-memory``, ``.git``…) and symbolic links are left out. A
file that is not UTF-8, front matter that is not a YAML mapping, or two files of one
title or permalink stop the read naming the file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from embornal.adapters.importers.common import existing
from embornal.domain.portability.import_mapping import (
    NESTED_TOO_DEEP,
    Entity,
    Graph,
    Observation,
    Related,
    refuse,
    whole_text,
)

__all__ = ["MAX_FILE_BYTES", "read_project"]

MAX_FILE_BYTES = 16 * 1024 * 1024
TOOL = "basic-memory"
_ITEM = re.compile(r"^\s*[-*]\s+(.*)$")
_CATEGORY = re.compile(r"^\[([^\[\]()]+)\]\s+(.+)$")
_EXPLICIT = re.compile(r"""^("[^"]+"|'[^']+'|[^\s\[\]]+)\s+\[\[([^\[\]]+)\]\]\s*(\((.*)\))?\s*$""")
_WIKI = re.compile(r"\[\[([^\[\]]+)\]\]")
_TAG = re.compile(r"(?:^|\s)#([\w/-]+)")


def _front_matter(text: str, where: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        return {}, text
    lines = text.split("\n")
    try:
        end = next(i for i, line in enumerate(lines[1:], 1) if line.strip() == "---")
    except StopIteration:
        raise refuse(where, "the front matter has no closing ---") from None
    try:
        data = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f", line {mark.line + 2}" if mark is not None else ""
        raise refuse(f"{where}{at}", "the front matter is not valid YAML") from None
    except RecursionError:
        raise refuse(where, NESTED_TOO_DEEP) from None
    whole_text(data, where)
    if not isinstance(data, dict):
        raise refuse(where, "the front matter is not a mapping of keys")
    return data, "\n".join(lines[end + 1 :])


def _observation(text: str) -> Observation | None:
    match = _CATEGORY.match(text)
    if match is None or match.group(1).strip().lower() in ("x", " ", "-"):
        return None
    category, rest = match.group(1).strip(), match.group(2).strip()
    context = None
    if rest.endswith(")") and "(" in rest:
        start = rest.rfind("(")
        context, rest = rest[start + 1 : -1].strip() or None, rest[:start].strip()
    tags = tuple(dict.fromkeys(_TAG.findall(rest)))
    return Observation(rest, category, tags, context) if rest else None


def _text(data: dict[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise refuse(where, f"the front matter's {key!r} must be text")
    return str(value).strip() or None


def _tags(data: dict[str, Any]) -> tuple[str, ...]:
    raw = data.get("tags")
    if isinstance(raw, str):
        raw = [t for t in re.split(r"[,\s]+", raw) if t]
    return tuple(str(t).lstrip("#") for t in raw or () if isinstance(t, str | int))


def _read_file(root: Path, file: Path) -> tuple[Entity, list[tuple[str, str, str | None]]]:
    relative = file.relative_to(root).as_posix()
    where = relative
    if file.stat().st_size > MAX_FILE_BYTES:
        raise refuse(where, f"the file is over {MAX_FILE_BYTES} bytes")
    try:
        text = file.read_text("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError:
        raise refuse(where, "the file is not UTF-8 text") from None
    data, body = _front_matter(text, where)
    title = _text(data, "title", where) or file.stem
    kind = _text(data, "type", where) or "note"
    permalink = _text(data, "permalink", where) or relative[: -len(".md")]
    observations: list[Observation] = []
    relations: list[tuple[str, str, str | None]] = []
    prose: list[str] = []
    for line in body.split("\n"):
        item = _ITEM.match(line)
        content = item.group(1).strip() if item else line.strip()
        explicit = _EXPLICIT.match(content) if item else None
        if explicit is not None:
            verb = explicit.group(1).strip("'\"")
            relations.append((verb, explicit.group(2).strip(), explicit.group(4)))
            continue
        relations += [("links_to", t.strip(), None) for t in _WIKI.findall(content)]
        obs = _observation(content) if item else None
        if obs is not None:
            observations.append(obs)
        elif content and not content.startswith("#"):
            prose.append(line.rstrip())
    folder = tuple(Path(relative[: -len(".md")]).parts)
    times = {
        "file": relative,
        "permalink": permalink,
        "created": _text(data, "created", where),
        "modified": _text(data, "modified", where),
    }
    entity = Entity(
        permalink,
        title,
        kind,
        where,
        tuple(observations),
        folder,
        "\n".join(prose).strip() or None,
        _tags(data),
        times,
    )
    return entity, relations


def read_project(source: str, progress: Any = None) -> Graph:
    root = existing(source, directory=True, what="the directory of a basic-memory project")
    files = sorted(
        f
        for f in root.rglob("*.md")
        if f.is_file()
        and not f.is_symlink()
        and not any(p.startswith(".") for p in f.relative_to(root).parts)
    )
    entities: list[Entity] = []
    raw: list[tuple[Entity, list[tuple[str, str, str | None]]]] = []
    names: dict[str, str] = {}
    for n, file in enumerate(files, 1):
        entity, relations = _read_file(root, file)
        for name in {entity.key.lower(), entity.name.lower()}:
            if name in names and names[name] != entity.where:
                raise refuse(
                    entity.where, f"{name[:60]!r} is also the title or permalink of {names[name]}"
                )
        names[entity.key.lower()] = names[entity.name.lower()] = entity.where
        entities.append(entity)
        raw.append((entity, relations))
        if progress is not None:
            progress(n, len(files))
    lookup: dict[str, str] = {}
    for e in entities:
        for name in (e.name, e.key, e.key.rsplit("/", 1)[-1], Path(e.where).stem):
            lookup.setdefault(name.lower(), e.key)
    out: list[Related] = []
    for e, relations in raw:
        for verb, target, context in relations:
            key = lookup.get(target.lower().removesuffix(".md"), target)
            out.append(Related(e.key, verb, key, e.where, context))
    return Graph(TOOL, tuple(entities), tuple(out))
