"""The memory as a directory of Markdown files, one a path (decision 0062).

``/projects/embornal`` is ``projects/embornal.md``, the root ``_root.md`` (a segment
starts with a letter or a digit, so no path's file is named so). A file holds the facts
of its path, oldest first (then by id), each a YAML front matter block and its content::

    # /projects/embornal

    ---
    id: 01JD3X…
    kind: fact
    owner: default
    created_at: '2026-11-30T09:12:00.000000Z'
    confidence: 0.7
    ---
    The memory lives in SQLite; see [[/projects/embornal/storage]].

Keys come in one fixed order and a key at its default is left out, so two exports of
the same memory are the same bytes and a git diff of two shows only what changed. A
content line that is ``---`` (after any backslashes) is written with one more leading
backslash, and read back with one less. Content the body cannot hold exactly (a line
break other than ``\n``, such as ``\r`` or U+2028, another control character, or a
leading or trailing newline) is written instead as a quoted ``content:`` key of the
front matter, every such character escaped, with no body (format 2, decision 0133): no
content is read back as structure, and the file holds no ``\r`` of its own. A file is
read with ``\n`` alone ending a line (a file whose every line ends ``\r\n`` is read as
if it ended ``\n``), so an export of format 1 holding a ``\r`` reads back as written.
``_embornal.yaml`` marks the directory as an export (its format, its subject, whether
``--all``): ``import markdown`` needs it. Pure: the caller reads and writes the files.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from embornal.domain.clock import format_time
from embornal.domain.facts.fact import DEFAULT_KIND, Fact
from embornal.domain.facts.tags import OWNER_KEY
from embornal.domain.paths import ROOT, normalize_path
from embornal.domain.records import record
from embornal.errors import EmbornalError, InvalidImport

__all__ = [
    "FORMAT",
    "MARKER",
    "ROOT_FILE",
    "Block",
    "file_of",
    "marker_text",
    "parse_file",
    "parse_marker",
    "path_of",
    "render_file",
]

FORMAT = 2
_READABLE = (1, 2)  # format 1 had no ``content:`` key
MARKER = "_embornal.yaml"
ROOT_FILE = "_root.md"
_FENCE = "---"
_ESCAPED = re.compile(r"^\\*---$")


@record
class Block:
    """One fact as a file holds it: ``id`` None for one written by hand (a new fact)."""

    path: str
    line: int
    id: str | None
    kind: str
    state: str
    content: str
    attributes: Mapping[str, Any] | None
    tags: tuple[str, ...]
    visibility: str | None


def file_of(path: str) -> str:
    """The file (relative, ``/``-separated) that holds the facts of ``path``."""
    return ROOT_FILE if path == ROOT else path.lstrip("/") + ".md"


def path_of(relative: str) -> str:
    """The path a file (relative, ``/``-separated) holds; InvalidImport if none."""
    if relative == ROOT_FILE:
        return ROOT
    if not relative.endswith(".md"):
        raise InvalidImport(f"{relative}: not a Markdown file of an export; nothing was imported")
    path = "/" + relative.removesuffix(".md")
    try:
        normal = normalize_path(path)
    except EmbornalError as e:
        raise InvalidImport(f"{relative}: {e.message}; nothing was imported") from None
    if normal != path:
        raise InvalidImport(
            f"{relative}: the path {path} breaks the rules (it would be {normal}); "
            "nothing was imported"
        )
    return path


def marker_text(subject: str, *, everything: bool) -> str:
    """The marker: the format, who exported, and whether with ``--all``."""
    return _dump({"embornal": "markdown", "format": FORMAT, "subject": subject, "all": everything})


def parse_marker(text: str) -> Mapping[str, Any]:
    try:
        data = yaml.load(text, Loader=_LOADER)  # a safe loader
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict) or data.get("embornal") != "markdown":
        raise InvalidImport(f"{MARKER} is not an export's marker; nothing was imported")
    if data.get("format") not in _READABLE:
        raise InvalidImport(
            f"{MARKER}: format {data.get('format')!r} is not one this version reads "
            f"({', '.join(map(str, _READABLE))})"
        )
    return data


_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
_RESOLVER = yaml.resolver.Resolver()
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built with it


# what JSON leaves as it is but YAML reads otherwise (a line break, folded into a space)
# or refuses (not printable): escaped as \uXXXX, which both read
_UNQUOTABLE = re.compile(r"[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def _quoted(value: str) -> str:
    """A string as YAML's double-quoted form: JSON's, escapes included, and the characters
    YAML reads otherwise escaped too."""
    return _UNQUOTABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", json.dumps(value, ensure_ascii=False))


@functools.lru_cache(maxsize=4096)
def _text(value: str) -> str:
    """A string as YAML: plain when YAML reads it back as that same string, else
    double-quoted."""
    if _PLAIN.match(value):
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
        if tag == "tag:yaml.org,2002:str":
            return value
    return _quoted(value)


def _flow(value: Any) -> str:
    """A value as YAML's flow style (JSON's form for a list or a mapping, keys sorted)."""
    if isinstance(value, str):
        return _quoted(value)
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_quoted(str(k))}: {_flow(value[k])}" for k in sorted(value)) + "}"
    return "[" + ", ".join(_flow(v) for v in value) + "]"


def _scalar(value: Any) -> str:
    return _text(value) if isinstance(value, str) else _flow(value)


def _dump(data: Mapping[str, Any]) -> str:
    """``data`` as a YAML block mapping in its own key order (one level of nested mapping
    or list in block style, deeper values in flow style), written by hand: the same data
    gives the same bytes, faster than a YAML emitter."""
    out: list[str] = []
    for key, value in data.items():
        name = _text(str(key))
        if isinstance(value, Mapping) and value:
            out.append(f"{name}:\n")
            out.extend(f"  {_text(str(k))}: {_scalar(v)}\n" for k, v in value.items())
        elif isinstance(value, list | tuple) and value:
            out.append(f"{name}:\n")
            out.extend(f"- {_scalar(v)}\n" for v in value)
        else:
            out.append(f"{name}: {_scalar(value)}\n")
    return "".join(out)


def _front(fact: Fact) -> dict[str, Any]:
    out: dict[str, Any] = {"id": fact.id, "kind": fact.kind}
    if fact.state != "active":
        out["state"] = fact.state
    out["owner"] = fact.owner
    out["created_at"] = format_time(fact.created_at)
    if fact.supersedes_id:
        out["supersedes"] = fact.supersedes_id
    tags = sorted(f"{t.key}={t.value}" for t in fact.tags if t.key != OWNER_KEY)
    if tags:
        out["tags"] = tags
    if fact.visibility != "shared":
        out["visibility"] = fact.visibility
    if fact.confidence is not None:
        out["confidence"] = round(fact.confidence, 6)
    if fact.last_confirmed_at is not None:
        out["last_confirmed_at"] = format_time(fact.last_confirmed_at)
    if fact.pinned:
        out["pinned"] = True
    if fact.user_weight is not None:
        out["user_weight"] = fact.user_weight
    if fact.lifetime != "standard":
        out["lifetime"] = fact.lifetime
    if fact.attributes:
        out["attributes"] = {k: fact.attributes[k] for k in sorted(fact.attributes)}
    return out


def _escape(line: str) -> str:
    return "\\" + line if _ESCAPED.match(line) else line


def _unescape(line: str) -> str:
    return line[1:] if _ESCAPED.match(line) and line.startswith("\\") else line


# a character the body cannot hold as it is: a control character but the tab and the
# newline (``\r`` among them), or one an editor shows as a line break
_NOT_IN_BODY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _in_body(content: str) -> bool:
    """Whether the body below the front matter holds ``content`` exactly."""
    return not _NOT_IN_BODY.search(content) and content.strip("\n") == content


def render_file(path: str, facts: Iterable[Fact]) -> str:
    """The file of ``path`` holding ``facts`` (in the order given)."""
    parts = [f"# {path}\n"]
    for fact in facts:
        front = _dump(_front(fact))
        if _in_body(fact.content):
            body = "\n".join(_escape(line) for line in fact.content.split("\n"))
            parts.append(f"\n{_FENCE}\n{front}{_FENCE}\n{body}\n")
        else:
            parts.append(f"\n{_FENCE}\n{front}content: {_quoted(fact.content)}\n{_FENCE}\n")
    return "".join(parts)


def _lines(text: str) -> list[str]:
    """The lines of a file: ``\n`` ends one (``\r\n`` when every line ends so: a file saved
    with Windows line ends); a lone ``\r`` is content."""
    if "\r\n" in text and text.count("\n") == text.count("\r\n"):
        text = text.replace("\r\n", "\n")
    return text.split("\n")


def parse_file(relative: str, text: str) -> list[Block]:
    """The blocks of one file (``relative``: its name in the directory, for errors)."""
    path = path_of(relative)
    lines = _lines(text)
    blocks: list[Block] = []
    at = 0
    while at < len(lines) and lines[at] != _FENCE:
        at += 1
    while at < len(lines):
        start = at + 1  # the 1-based number of the opening fence's line
        end = at + 1
        while end < len(lines) and lines[end] != _FENCE:
            end += 1
        if end == len(lines):
            raise _bad(relative, start, "a front matter block is not closed with ---")
        front = _front_of(relative, start, "\n".join(lines[at + 1 : end]))
        at = end + 1
        body_from = at
        while at < len(lines) and lines[at] != _FENCE:
            at += 1
        content = "\n".join(_unescape(line) for line in lines[body_from:at]).strip("\n")
        blocks.append(_block(relative, path, start, front, content))
    return blocks


def _bad(relative: str, line: int, message: str) -> InvalidImport:
    return InvalidImport(f"{relative}, line {line}: {message}; nothing was imported")


def _front_of(relative: str, line: int, text: str) -> Mapping[str, Any]:
    try:
        data = yaml.load(text, Loader=_LOADER) if text.strip() else {}
    except yaml.YAMLError as e:
        raise _bad(relative, line, f"the front matter is not valid YAML ({e})") from None
    if not isinstance(data, dict):
        raise _bad(relative, line, "the front matter is not a mapping of keys")
    return data


def _block(relative: str, path: str, line: int, front: Mapping[str, Any], content: str) -> Block:
    quoted = front.get("content")
    if quoted is not None:
        if not isinstance(quoted, str):
            raise _bad(relative, line, "content must be text")
        if content:
            raise _bad(relative, line, "the fact has content both in the front matter and below it")
        content = quoted
    fact_id = front.get("id")
    kind = front.get("kind", DEFAULT_KIND)
    state = front.get("state", "active")
    attributes = front.get("attributes")
    tags = front.get("tags", [])
    visibility = front.get("visibility")
    if fact_id is not None and not isinstance(fact_id, str):
        raise _bad(relative, line, "id must be text")
    if not isinstance(kind, str) or not isinstance(state, str):
        raise _bad(relative, line, "kind and state must be text")
    if attributes is not None and not isinstance(attributes, dict):
        raise _bad(relative, line, "attributes must be a mapping")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _bad(relative, line, "tags must be a list of KEY=VALUE")
    if visibility is not None and not isinstance(visibility, str):
        raise _bad(relative, line, "visibility must be text")
    if not content:
        raise _bad(relative, line, "the fact has no content")
    return Block(
        path=path,
        line=line,
        id=fact_id.upper() if fact_id else None,
        kind=kind,
        state=state,
        content=content,
        attributes=attributes,
        tags=tuple(tags),
        visibility=visibility,
    )
